import { randomBytes } from 'node:crypto'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { connectService, shootBothThemes, startServiceSandbox, type ServiceSandboxInfo } from './ui-helpers'

/** Things a new user met on a first walk, each checked the way the user saw it. */

/** Starts a sandbox, connects the app to it (profile "My service"), runs `body`, stops the sandbox. */
async function withService(page: Page, body: (info: ServiceSandboxInfo, key: string) => Promise<void>): Promise<void> {
  const key = `e2e_${randomBytes(10).toString('hex')}`
  const service = await startServiceSandbox(['--api-key', key])
  try {
    await connectService(page, service.info, key)
    await body(service.info, key)
  } finally {
    await service.stop()
  }
}

/** A second service profile on the same service, with its own network labels; it becomes active. */
async function addProfile(
  page: Page,
  info: ServiceSandboxInfo,
  key: string,
  name: string,
  labels: [string, string],
): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
  await page.getByRole('button', { name: 'New profile' }).click()
  await page.getByLabel('Profile name').fill(name)
  await page.getByLabel('Data API address').fill(info.base_url)
  await page.getByLabel('RPC address').fill(info.rpc_url)
  await page.getByLabel('First network name').fill(info.networks[0]!)
  await page.getByLabel('First network label').fill(labels[0])
  await page.getByLabel('Second network name').fill(info.networks[1]!)
  await page.getByLabel('Second network label').fill(labels[1])
  await page.getByRole('textbox', { name: 'API key', exact: true }).fill(key)
  await page.getByRole('button', { name: 'Save and test' }).click()
  await expect(page.getByRole('row', { name: new RegExp(`^${name} active`) })).toBeVisible({ timeout: 20_000 })
}

async function useProfile(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
  await page.getByRole('button', { name: `Use profile ${name}` }).click()
  await expect(page.getByRole('row', { name: new RegExp(`^${name} active`) })).toBeVisible({ timeout: 20_000 })
}

function intersects(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await locator.boundingBox()
  if (!b) throw new Error(`no box for ${locator.toString()}`)
  return b
}

test('a failed transaction shows its whole status badge inside the Status cell', async ({ app: page }, testInfo) => {
  test.setTimeout(120_000)
  await withService(page, async (info) => {
    const main = page.getByRole('main')
    await page.getByRole('combobox', { name: 'Address' }).fill(info.demo_addresses.alpha!.whale!)
    await page.getByRole('combobox', { name: 'Address' }).press('Enter')
    await main.getByRole('tab', { name: 'Transactions' }).click()
    const table = main.getByRole('table', { name: 'Transactions' })
    await expect(table.getByRole('row').nth(1)).toBeVisible({ timeout: 20_000 })
    await main.getByLabel('Status').selectOption('failed')
    // The sandbox's reason ("execution reverted") is longer than the "Reverted" seen elsewhere.
    const cells = table.getByRole('cell', { name: /^Failed: / })
    await expect(cells.first()).toBeVisible({ timeout: 20_000 })
    const n = Math.min(await cells.count(), 5)
    expect(n).toBeGreaterThan(0)
    for (let i = 0; i < n; i++) {
      const cell = cells.nth(i)
      const badge = cell.getByText(/^Failed: /)
      const c = await box(cell)
      const b = await box(badge)
      const where = `${await badge.textContent()}: badge ${JSON.stringify(b)} in cell ${JSON.stringify(c)}`
      expect(b.x >= c.x - 0.5 && b.x + b.width <= c.x + c.width + 0.5, `horizontally inside, ${where}`).toBe(true)
      expect(b.y >= c.y - 0.5 && b.y + b.height <= c.y + c.height + 0.5, `vertically inside, ${where}`).toBe(true)
      // Nor cut inside the badge itself (an ellipsis would hide the reason).
      expect(
        await badge.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1),
        where,
      ).toBe(true)
    }
    await shootBothThemes(page, testInfo, 'failed-status', { fullPage: false })
  })
})

test('a toast never covers a primary action, and switching profile closes it', async ({ app: page }) => {
  test.setTimeout(120_000)
  await withService(page, async (info, key) => {
    await addProfile(page, info, key, 'Second desk', ['Main', 'Side'])

    // "Save limits" brought down to the bottom-right corner, where toasts appear by default.
    const saveLimits = page.getByRole('button', { name: 'Save limits' })
    const viewport = page.viewportSize()!
    const before = await box(saveLimits)
    await page.evaluate(`window.scrollBy(0, ${Math.round(before.y + before.height - (viewport.height - 24))})`)
    const button = await box(saveLimits)
    expect(button.x + button.width, 'the button is in the right half').toBeGreaterThan(viewport.width / 2)
    expect(button.y + button.height, 'the button is at the bottom').toBeGreaterThan(viewport.height - 60)
    await saveLimits.click()
    const saved = page
      .getByRole('region', { name: /^Notifications/ })
      .getByRole('listitem')
      .filter({ hasText: 'Limits saved' })
    await expect(saved).toBeVisible()
    // Let it settle where it goes (it slides in, then may move off the button).
    await expect.poll(async () => intersects(await box(saved), await box(saveLimits)), { timeout: 5_000 }).toBe(false)
    await expect(saveLimits).toBeInViewport()

    // Hovering keeps a toast open; switching profile (by keyboard, the pointer stays on it) still closes it.
    await saved.hover()
    await page.getByRole('button', { name: 'Use profile My service' }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('row', { name: /^My service active/ })).toBeVisible({ timeout: 20_000 })
    await expect(saved).toBeHidden({ timeout: 3_000 })
  })
})

test("RPC console history is per profile and names networks by that profile's labels", async ({ app: page }) => {
  test.setTimeout(120_000)
  const nav = page.getByRole('navigation', { name: 'Main' })
  const history = page.getByRole('table', { name: 'RPC history' })
  await withService(page, async (info, key) => {
    await nav.getByRole('link', { name: 'RPC console' }).click()
    await page.getByLabel('Method', { exact: true }).selectOption('eth_blockNumber')
    await page.getByRole('button', { name: 'Send' }).click()
    await expect(history.getByRole('row')).toHaveCount(2)
    await expect(history.getByRole('cell', { name: 'Alpha', exact: true })).toBeVisible()

    await addProfile(page, info, key, 'Second desk', ['Main', 'Side'])
    await nav.getByRole('link', { name: 'RPC console' }).click()
    await expect(history).toHaveCount(0)
    await expect(page.getByText('Calls you send with Second desk are listed here.')).toBeVisible()
    await page.getByLabel('Method', { exact: true }).selectOption('eth_chainId')
    await page.getByRole('button', { name: 'Send' }).click()
    await expect(history.getByRole('row')).toHaveCount(2)
    await expect(history.getByRole('cell', { name: 'Main', exact: true })).toBeVisible()
    await expect(history.getByRole('cell', { name: 'eth_chainId', exact: true })).toBeVisible()
    await expect(history).not.toContainText('alpha')

    await useProfile(page, 'My service')
    await nav.getByRole('link', { name: 'RPC console' }).click()
    await expect(history.getByRole('row')).toHaveCount(2)
    await expect(history.getByRole('cell', { name: 'Alpha', exact: true })).toBeVisible()
    await expect(history.getByRole('cell', { name: 'eth_blockNumber', exact: true })).toBeVisible()
    await expect(history).not.toContainText('eth_chainId')
  })
})

import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import {
  addToNewWatchlist,
  connectService,
  fillServiceForm,
  openAddress,
  stopServiceUnderRefresh,
  startServiceSandbox,
  type ServiceSandbox,
} from './ui-helpers'

/**
 * The user guide's screenshots (docs/user-guide/), taken while walking each task an analyst
 * does, so a run of the suite keeps them current: first run on the embedded sandbox; then,
 * against a sandbox standing in for the real service, reading a wallet, following the money,
 * labels, cases and reports, watchlists, providers and costs, and working offline.
 */
const IMG = resolve(import.meta.dirname, '..', 'docs', 'user-guide', 'img')

interface Shot {
  /** Only this part of the page. */
  part?: Locator
  /** Scroll this to the top of the window first (the sticky header stays). Default: the page's top. */
  from?: Locator
  /** Only the top this many pixels of the window. */
  height?: number
}

/**
 * Saves the window (or one part of it) as docs/user-guide/img/<name>.png in the light theme,
 * without the toasts of the moment, which would cover what the page shows.
 */
async function shoot(page: Page, name: string, shot: Shot = {}): Promise<void> {
  mkdirSync(IMG, { recursive: true })
  await page.emulateMedia({ colorScheme: 'light' })
  const path = resolve(IMG, `${name}.png`)
  // Just below the sticky header (about 75 px high).
  const box = shot.from ? await shot.from.boundingBox() : null
  const top = box ? Number(await page.evaluate('window.scrollY')) + box.y - 90 : 0
  if (!shot.part) await page.evaluate(`window.scrollTo(0, ${Math.max(0, Math.round(top))})`)
  // Let charts and the graph settle into the frame before the picture.
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))')
  const style = '[data-sonner-toaster] { display: none !important; }'
  if (shot.part) await shot.part.screenshot({ path, style })
  else
    await page.screenshot({
      path,
      style,
      clip: shot.height ? { x: 0, y: 0, width: 1280, height: shot.height } : undefined,
    })
}

test.beforeEach(async ({ app }) => {
  await app.setViewportSize({ width: 1280, height: 820 })
})

test('user guide: first run on the embedded sandbox', async ({ app }) => {
  test.setTimeout(150_000)
  const page = app
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Chainscope' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Start the sandbox' })).toBeEnabled()
  await shoot(page, 'first-run-welcome')
  await page.getByRole('button', { name: 'Start the sandbox' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Open an address' })).toBeVisible({ timeout: 90_000 })
  await expect(page.getByRole('main').getByRole('heading', { name: 'Sample wallets on Alpha' })).toBeVisible({
    timeout: 20_000,
  })
  await expect(page.getByRole('group', { name: 'Alpha block height and gas price' })).toContainText(/#[\d,]+/, {
    timeout: 30_000,
  })
  await shoot(page, 'first-run-home')
})

test('user guide: an analyst reads a wallet, follows the money, keeps a case, watches and goes offline', async ({
  app,
}) => {
  test.setTimeout(300_000)
  const page = app
  const key = `e2e_${randomBytes(10).toString('hex')}`
  // --admin: the offline step holds the service's answers (fault switch) to order its events.
  let service: ServiceSandbox | null = await startServiceSandbox(['--api-key', key, '--admin'])
  try {
    const main = page.getByRole('main')
    const { whale, holder } = service.info.demo_addresses.alpha!

    await test.step('providers: a profile for the service', async () => {
      await fillServiceForm(page, service!.info)
      await shoot(page, 'providers-connect')
      await connectService(page, service!.info, key)
      await expect(page.getByRole('meter', { name: 'Daily request quota' })).toBeVisible()
    })

    await test.step('reading a wallet: balances and transactions', async () => {
      await openAddress(page, whale!)
      const balances = main.getByRole('table', { name: 'Token balances' })
      await expect(balances.getByRole('row').nth(1)).toBeVisible({ timeout: 20_000 })
      await expect(main.getByRole('status', { name: 'Data freshness' })).toContainText('Fetched')
      await expect(main.getByRole('img', { name: /^Allocation by fiat value: / })).toBeVisible()
      await shoot(page, 'wallet-balances')
      await main.getByRole('tab', { name: 'Transactions' }).click()
      await expect(main.getByRole('status', { name: 'Loaded transactions' })).toHaveText(/^50 loaded in 1 page$/, {
        timeout: 20_000,
      })
      await expect(main.getByRole('table', { name: 'Transactions' }).getByRole('row').nth(1)).toBeVisible()
      await shoot(page, 'wallet-transactions')
    })

    await test.step('following the money: the flow graph', async () => {
      await main.getByRole('tab', { name: 'Flow graph' }).click()
      await expect(
        main.getByRole('img', { name: /^Flow graph: \d+ addresses and \d+ edges within 2 hops\.$/ }),
      ).toBeVisible({ timeout: 30_000 })
      await expect(
        main
          .getByRole('table', { name: /^Value moved, per sender, receiver and asset/ })
          .getByRole('row')
          .nth(1),
      ).toBeVisible({ timeout: 30_000 })
      await shoot(page, 'flow-graph', { from: main.getByRole('tabpanel', { name: 'Flow graph' }) })
    })

    await test.step('labels: one on the address page, all in Settings', async () => {
      await main.getByRole('tab', { name: 'Balances' }).click()
      const editor = main.getByRole('group', { name: `Your label of ${whale} on Alpha` })
      await editor.getByRole('button', { name: `Add label of ${whale} on Alpha` }).click()
      await editor.getByRole('textbox', { name: 'Label', exact: true }).fill('Busy whale')
      await editor.getByRole('textbox', { name: 'Label note' }).fill('seen in the sandbox')
      await editor.getByRole('button', { name: 'Save label' }).click()
      await expect(editor).toContainText('Busy whale')
      await shoot(page, 'labels-address', { height: 320 })
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
      const panel = main.getByRole('region', { name: 'Address labels' })
      await expect(panel.getByRole('table', { name: 'Your labels' })).toContainText('Busy whale')
      await shoot(page, 'labels-settings', { part: panel })
    })

    await test.step('cases and reports: a case of two addresses, its report', async () => {
      await openAddress(page, whale!)
      await expect(main.getByRole('table', { name: 'Token balances' }).getByRole('row').nth(1)).toBeVisible({
        timeout: 20_000,
      })
      await main.getByRole('button', { name: 'Add to case' }).click()
      const dialog = page.getByRole('dialog', { name: 'Add to case' })
      await dialog.getByLabel('New case name').fill('Stolen funds')
      await shoot(page, 'cases-add')
      await dialog.getByRole('button', { name: 'Add' }).click()
      await expect(page.getByText('Added to the case Stolen funds (1 address)')).toBeVisible()
      await openAddress(page, holder!)
      await main.getByRole('button', { name: 'Add to case' }).click()
      await expect(dialog.getByLabel('Case')).toHaveValue(/.+/)
      await dialog.getByRole('button', { name: 'Add' }).click()
      await expect(page.getByText('Added to the case Stolen funds (2 addresses)')).toBeVisible()
      await page.getByRole('link', { name: 'Chainscope home' }).click()
      await main.getByRole('link', { name: 'Stolen funds' }).click()
      await expect(main.getByRole('heading', { level: 1, name: 'Case: Stolen funds' })).toBeVisible()
      await main.getByLabel('Case notes').fill('Funds left the whale in two hops.')
      await main.getByRole('button', { name: 'Save notes' }).click()
      await expect(page.getByText('Notes saved')).toBeVisible()
      await expect(main.getByRole('table', { name: 'Addresses in this case' }).getByRole('row')).toHaveCount(3)
      await shoot(page, 'cases-case')

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        main.getByRole('button', { name: 'Download report' }).click(),
      ])
      const file = test.info().outputPath('report.html')
      await download.saveAs(file)
      // Opened as a reader would: from the file, with the network refused.
      const context = await page
        .context()
        .browser()!
        .newContext({ viewport: { width: 1280, height: 820 } })
      try {
        await context.route('**', (route) =>
          route.request().url().startsWith('file:') ? route.continue() : route.abort('blockedbyclient'),
        )
        const report = await context.newPage()
        await report.goto(pathToFileURL(file).href)
        await expect(report.getByRole('table', { name: 'Addresses in this report' }).getByRole('row')).toHaveCount(3)
        await shoot(report, 'cases-report')
      } finally {
        await context.close()
      }
    })

    await test.step('watchlists: the whale watched, its changes checked', async () => {
      await openAddress(page, whale!)
      await addToNewWatchlist(page, { list: 'Whales', label: 'Busy whale', tags: 'demo, busy' })
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Watchlists' }).click()
      const entries = page.getByRole('table', { name: 'Entries of Whales' })
      await expect(entries).toContainText('Busy whale')
      await expect(entries).toContainText(/\d+ tokens/)
      await expect(page.getByLabel(/^Check for changes costs \d+/)).toBeVisible({ timeout: 20_000 })
      // The first check sets the baseline: nothing before it counts as new.
      await page.getByRole('button', { name: 'Check for changes' }).click()
      await expect(page.getByRole('status').filter({ hasText: 'Checked 1 addresses: 0 changed' })).toBeVisible({
        timeout: 30_000,
      })
      await shoot(page, 'watchlists')
    })

    await test.step('providers and costs: limits and billing in Settings', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
      const limits = main.getByRole('region', { name: 'Limits of Local service' })
      await expect(limits.getByLabel('The service counts')).toBeVisible()
      await shoot(page, 'providers-limits', { part: limits })
    })

    await test.step('working offline: the service stops, saved data is shown "as of"', async () => {
      await page.getByRole('link', { name: 'Chainscope home' }).click()
      await openAddress(page, whale!)
      await expect(main.getByRole('table', { name: 'Token balances' }).getByRole('row').nth(1)).toBeVisible()
      await stopServiceUnderRefresh(page, service!)
      service = null
      await expect(page.getByRole('status', { name: 'Connection' })).toHaveText(/answering since \d\d:\d\d · retrying/)
      await expect(
        main.getByRole('note').filter({ hasText: /answering since .*Saved copies are shown\.$/ }),
      ).toBeVisible()
      await shoot(page, 'offline')
    })
  } finally {
    await service?.stop()
  }
})

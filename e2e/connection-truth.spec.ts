import { randomBytes } from 'node:crypto'
import type { Page, TestInfo } from '@playwright/test'
import { expect, test } from './fixtures'
import { auditBothThemes, BLOCKING_IMPACTS, BLOCKING_RULES, describeFindings } from './axe'
import { connectService, startServiceSandbox, type ServiceSandboxInfo } from './ui-helpers'

/** The header alone, in the light and the dark theme, into the test's output folder. */
async function shootHeader(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))')
    await page.getByRole('banner').screenshot({ path: testInfo.outputPath(`${name}-${colorScheme}.png`) })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

async function noSeriousFindings(page: Page, screen: string): Promise<void> {
  const { findings } = await auditBothThemes(page, screen)
  const blocking = findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact) || BLOCKING_RULES.includes(f.rule))
  expect(blocking, describeFindings(blocking)).toEqual([])
}

/** Requests the service counted for `key` (its admin stats). */
async function requestsOf(info: ServiceSandboxInfo, key: string): Promise<number> {
  const body = (await (await fetch(`${info.base_url}/__sandbox/stats`)).json()) as {
    keys: Record<string, { requests: number }>
  }
  return body.keys[key]?.requests ?? 0
}

/** Issue 38 items 3 and 5: the header tells what real calls did; Work offline sends nothing. */
test('a frozen service: the header stops saying Online and says what is known; Work offline sends nothing', async ({
  app,
}, testInfo) => {
  test.setTimeout(240_000)
  const page = app
  const key = `e2e_${randomBytes(10).toString('hex')}`
  const service = await startServiceSandbox(['--api-key', key, '--admin'])
  let frozen = false
  try {
    await connectService(page, service.info, key)
    const { whale, holder } = service.info.demo_addresses.alpha!
    const main = page.getByRole('main')
    const connection = page.getByRole('status', { name: 'Connection' })
    const search = page.getByRole('combobox', { name: 'Address' })
    await search.fill(whale!)
    await search.press('Enter')
    const balances = main.getByRole('table', { name: 'Token balances' })
    await expect(balances.getByRole('row').nth(1)).toBeVisible({ timeout: 20_000 })
    await expect(connection).toHaveText('Online')
    await shootHeader(page, testInfo, 'header-online')

    // Frozen: the process is stopped, every request hangs until its deadline.
    process.kill(service.pid, 'SIGSTOP')
    frozen = true
    await main.getByRole('button', { name: 'Refresh' }).click()
    await expect(connection).toHaveText(
      /^(.+: not|Not) answering since \d\d:\d\d · retrying (in \d+ s|with the next request)$/,
      {
        timeout: 40_000,
      },
    )
    await expect(connection).not.toHaveText(/Online/)
    // The cached balances stay on screen.
    await expect(balances.getByRole('row').nth(1)).toBeVisible()
    await shootHeader(page, testInfo, 'header-not-answering')
    await noSeriousFindings(page, 'not answering')

    process.kill(service.pid, 'SIGCONT')
    frozen = false
    // Work offline: the header says so, and nothing reaches the service whatever the user does.
    const workOffline = page.getByRole('switch', { name: 'Work offline' })
    await workOffline.check()
    await expect(connection).toHaveText('Offline by choice')
    const before = await requestsOf(service.info, key)
    await search.fill(holder!)
    await search.press('Enter')
    const alert = main.getByRole('alert')
    await expect(alert).toContainText('Work offline is on', { timeout: 20_000 })
    await search.fill(whale!)
    await search.press('Enter')
    await expect(balances.getByRole('row').nth(1)).toBeVisible({ timeout: 20_000 })
    await expect(main.getByRole('status', { name: 'Data freshness' })).toBeVisible()
    await shootHeader(page, testInfo, 'header-offline-by-choice')
    await noSeriousFindings(page, 'offline by choice')
    expect(await requestsOf(service.info, key)).toBe(before)
    // Still on after a reload: the switch is saved in main.
    await page.reload()
    await expect(page.getByRole('switch', { name: 'Work offline' })).toBeChecked()
    await expect(connection).toHaveText('Offline by choice')
    expect(await requestsOf(service.info, key)).toBe(before)

    // Off again: calls go out; once one is answered the header says Online.
    await page.getByRole('switch', { name: 'Work offline' }).uncheck()
    await expect(connection).not.toHaveText('Offline by choice')
    await expect(async () => {
      const retry = main.getByRole('button', { name: /^Retry|^Refresh$/ }).first()
      if (await retry.isEnabled()) await retry.click()
      await expect(connection).toHaveText('Online', { timeout: 5000 })
    }).toPass({ timeout: 120_000 })
    expect(await requestsOf(service.info, key)).toBeGreaterThan(before)
  } finally {
    if (frozen) process.kill(service.pid, 'SIGCONT')
    await service.stop()
  }
})

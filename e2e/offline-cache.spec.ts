import { randomBytes } from 'node:crypto'
import { expect, test } from './fixtures'
import { auditBothThemes, BLOCKING_IMPACTS, describeFindings } from './axe'
import { addToNewWatchlist, connectService, openAddress, shootBothThemes, startServiceSandbox } from './ui-helpers'

/**
 * Issue 38: with the service frozen (its process stopped, not gone: every call hangs until its
 * deadline) after the busy wallet was loaded, every view shows what main keeps of it at once,
 * with its "as of", and the failure beside it — not a skeleton, not "0 loaded", not an error
 * in its place. The renderer is reloaded first, so nothing comes from its memory. The failure is
 * said once per view (one line beside the data, no error panel as well); Work offline then says
 * "Offline by choice" in every one of them (docs/decisions/one-failure-line.md).
 */
test('service frozen: the busy wallet’s cached transactions, balances, counterparties, both-networks cards, approvals and watchlist row stay, with their time and the failure once', async ({
  app: page,
}, testInfo) => {
  test.setTimeout(300_000)
  const key = `e2e_${randomBytes(10).toString('hex')}`
  const service = await startServiceSandbox(['--api-key', key])
  let frozen = false
  try {
    await connectService(page, service.info, key)
    const whale = service.info.demo_addresses.alpha!.whale!
    const main = page.getByRole('main')
    await openAddress(page, whale)
    const balanceRows = main.getByRole('table', { name: 'Token balances' }).getByRole('row')
    await expect(balanceRows.nth(1)).toBeVisible({ timeout: 30_000 })
    const cards = main.getByRole('region', { name: 'Both networks' }).getByRole('listitem')
    await expect(cards).toHaveCount(2, { timeout: 30_000 })
    await addToNewWatchlist(page, { list: 'Desks', label: 'Busy wallet' })

    await main.getByRole('tab', { name: 'Transactions' }).click()
    const loaded = main.getByRole('status', { name: 'Loaded transactions' })
    await expect(loaded).toContainText('loaded in 1 page', { timeout: 30_000 })
    await main.getByRole('button', { name: 'Load all' }).click()
    await expect(loaded).toContainText('all loaded', { timeout: 180_000 })
    const all = (await loaded.textContent())!.trim()
    expect(all).toMatch(/^[\d,]+ loaded in \d+ pages · all loaded$/)

    process.kill(service.pid, 'SIGSTOP')
    frozen = true
    await page.reload()

    // Transactions: every cached page at once, with its "as of" (main's cache is still fresh,
    // so nothing is asked yet).
    await expect(loaded).toHaveText(all, { timeout: 10_000 })
    const txPanel = main.getByRole('tabpanel', { name: 'Transactions' })
    await expect(txPanel.getByRole('status', { name: 'Data freshness' })).toContainText(/as of \d{4}-\d\d-\d\d/)
    const balancesPanel = main.getByRole('tabpanel', { name: 'Balances' })
    const networks = main.getByRole('region', { name: 'Both networks' })
    await expect(cards).toHaveCount(2)
    await expect(networks.getByRole('status', { name: 'How fresh the both-networks check is' })).toContainText(
      /as of \d{4}-\d\d-\d\d/,
    )

    // The user asks for fresh data: it says so at once (set before any answer: fetched.test.ts), keeps
    // the data, then tells the failure beside it. No timing is asserted here, only that it shows.
    await main.getByRole('button', { name: 'Refresh' }).click()
    await expect(txPanel.getByRole('status').filter({ hasText: /^Refreshing…$/ })).toBeVisible({ timeout: 5000 })
    await networks.getByRole('button', { name: 'Check again' }).click()
    await expect(networks.getByRole('status').filter({ hasText: /^Refreshing…$/ })).toBeVisible({ timeout: 5000 })
    await expect(loaded).toHaveText(all)
    const stale = /^Service not answering since \d\d:\d\d · showing cached data from \d\d:\d\d$/
    await expect(txPanel.getByRole('status', { name: 'Shown despite a failure' })).toHaveText(stale, {
      timeout: 60_000,
    })
    await expect(loaded).toHaveText(all)
    // Main's breaker answers the refresh from the saved copy once the service hangs: the failure
    // is the line above and the note below, and the header does not say Online.
    await expect(txPanel.getByRole('status', { name: 'Data freshness' })).toContainText(/as of \d{4}-\d\d-\d\d/)
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText(/^Not answering since \d\d:\d\d/)
    await expect(networks.getByRole('status', { name: 'Shown despite a failure' })).toHaveText(stale, {
      timeout: 60_000,
    })
    await expect(cards).toHaveCount(2)
    await shootBothThemes(page, testInfo, 'offline-1-transactions')

    // Balances: shown from main's cache, with their time and the failure.
    await main.getByRole('tab', { name: 'Balances' }).click()
    await expect(balanceRows.nth(1)).toBeVisible()
    await expect(balancesPanel.getByRole('status', { name: 'Data freshness' })).toContainText(/as of \d{4}-\d\d-\d\d/)
    await expect(balancesPanel.getByRole('status', { name: 'Shown despite a failure' })).toHaveText(stale, {
      timeout: 60_000,
    })
    await shootBothThemes(page, testInfo, 'offline-2-balances')

    // Counterparties: built from the same cached transactions, told as of when.
    await main.getByRole('tab', { name: 'Counterparties' }).click()
    const range = main.getByRole('region', { name: 'What the counterparties table is built from' })
    const count = all.split(' ')[0]!
    await expect(range).toContainText(`Built from the ${count} loaded transactions`)
    await expect(range.getByRole('status', { name: 'Data freshness' })).toContainText(/as of \d{4}-\d\d-\d\d/)
    await expect(range.getByRole('status', { name: 'Shown despite a failure' })).toBeVisible()
    await shootBothThemes(page, testInfo, 'offline-3-counterparties')
    // Once: the line beside the data, with its way forward; no error panel as well.
    for (const region of [txPanel, balancesPanel, range, networks]) {
      await expect(region.getByRole('alert')).toHaveCount(0)
      if (await region.isVisible()) {
        await expect(region.getByRole('status', { name: 'Shown despite a failure' })).toHaveCount(1)
        await expect(region.getByRole('button', { name: 'Retry' })).toHaveCount(1)
      }
    }

    // Approvals: what the loaded transactions tell, as of when, and the failed check beside it.
    await main.getByRole('tab', { name: 'Approvals' }).click()
    const approvalsPanel = main.getByRole('tabpanel', { name: 'Approvals' })
    await expect(approvalsPanel.getByRole('heading', { name: /^In force \(\d+\)$/ })).toBeVisible({ timeout: 60_000 })
    await expect(approvalsPanel.getByRole('status', { name: 'Data freshness' })).toContainText(
      /as of \d{4}-\d\d-\d\d/,
      {
        timeout: 60_000,
      },
    )
    await expect(approvalsPanel.getByRole('status', { name: 'Shown despite a failure' })).toHaveText(stale, {
      timeout: 60_000,
    })
    await expect(approvalsPanel.getByRole('alert')).toHaveCount(0)
    await shootBothThemes(page, testInfo, 'offline-4-approvals')

    const { findings } = await auditBothThemes(page, 'offline counterparties')
    const blocking = findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact))
    expect(blocking, describeFindings(blocking)).toEqual([])

    // The watchlist row: its kept summary with its "as of", and the failure it was served for.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Watchlists' }).click()
    const row = main
      .getByRole('table', { name: 'Entries of Desks' })
      .getByRole('row')
      .filter({ hasText: 'Busy wallet' })
    await expect(row).toContainText(/\d+ tokens? · /)
    await expect(row.getByRole('cell').nth(4)).toHaveText(/ago$/)
    await expect(row).toContainText(/Service not answering since \d\d:\d\d · showing cached data from \d\d:\d\d/)
    await expect(main.getByRole('alert')).toHaveCount(0)
    await shootBothThemes(page, testInfo, 'offline-5-watchlist')

    // Work offline: every view says so, beside the same data.
    await page.getByRole('switch', { name: 'Work offline' }).check()
    await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Offline by choice')
    const byChoice = /^Offline by choice · showing (cached data|the last answer) from \d\d:\d\d$/
    await expect(row).toContainText(/Offline by choice · showing cached data from \d\d:\d\d/)
    await page.goBack()
    for (const tab of ['Approvals', 'Counterparties', 'Balances', 'Transactions'] as const) {
      await main.getByRole('tab', { name: tab }).click()
      const panel = main.getByRole('tabpanel', { name: tab })
      await expect(panel.getByRole('status', { name: 'Shown while working offline' })).toHaveText(byChoice)
      await expect(panel.getByRole('status', { name: 'Shown despite a failure' })).toHaveCount(0)
    }
    await expect(networks.getByRole('status', { name: 'Shown while working offline' })).toHaveText(byChoice)
    await expect(loaded).toHaveText(all)
    await expect(cards).toHaveCount(2)
    await shootBothThemes(page, testInfo, 'offline-6-by-choice')
    const byChoiceAudit = await auditBothThemes(page, 'offline by choice')
    const blockingByChoice = byChoiceAudit.findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact))
    expect(blockingByChoice, describeFindings(blockingByChoice)).toEqual([])
  } finally {
    if (frozen) process.kill(service.pid, 'SIGCONT')
    await service.stop()
  }
})

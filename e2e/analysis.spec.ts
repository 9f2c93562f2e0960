import { randomBytes } from 'node:crypto'
import { expect, test } from './fixtures'
import { connectService, shootBothThemes, startServiceSandbox, type ServiceSandbox } from './ui-helpers'

/**
 * The analyst views on the web host, against a sandbox standing in for the service:
 * counterparties and balance history of the busy wallet (whale) and of the address with
 * several token kinds (holder), both networks side by side, notes, and the cached search —
 * which still finds a transaction once the service is stopped.
 */
test('analyst views: counterparties, balance history, both networks, notes, and the cached search offline', async ({
  app,
}, testInfo) => {
  test.setTimeout(240_000)
  const page = app
  const key = `e2e_${randomBytes(10).toString('hex')}`
  let service: ServiceSandbox | null = await startServiceSandbox(['--api-key', key])
  try {
    await connectService(page, service.info, key)
    const { whale, holder } = service.info.demo_addresses.alpha!
    const main = page.getByRole('main')
    const search = page.getByRole('combobox', { name: 'Address' })
    const open = async (address: string): Promise<void> => {
      await search.fill(address)
      await search.press('Enter')
      await expect(main.getByRole('table', { name: 'Token balances' }).getByRole('row').nth(1)).toBeVisible({
        timeout: 20_000,
      })
    }
    let cachedHash = ''

    await test.step('whale: both networks side by side, with their cost', async () => {
      await open(whale!)
      const both = main.getByRole('region', { name: 'Both networks' })
      await expect(both.getByRole('listitem')).toHaveCount(2, { timeout: 20_000 })
      await expect(both.getByRole('listitem').first()).toContainText('has balances')
      // A service profile counts per call plus one per batch unless told otherwise: two single
      // calls a network (a batch of two would cost 3), 2 units each.
      await expect(both).toContainText(/This check cost (4 units|2 units|no units)/)
      await expect(both).toContainText('Checked now: 2 units')
      await expect(both.getByRole('button', { name: /^Open on / })).toHaveCount(1)
    })

    await test.step('whale: a note on the address', async () => {
      await main.getByRole('button', { name: 'Add a note on this address' }).click()
      await main.getByRole('textbox', { name: /Note on this address/ }).fill('Market maker, watch the USDC outflows')
      await main.getByRole('button', { name: 'Save note' }).click()
      await expect(main.getByText('Market maker, watch the USDC outflows')).toBeVisible()
    })

    await test.step('whale: counterparties from the loaded transactions', async () => {
      await main.getByRole('tab', { name: 'Counterparties' }).click()
      await expect(main.getByText('none are loaded for this address yet')).toBeVisible()
      await main.getByRole('button', { name: 'Load the first page of transactions' }).click()
      const table = main.getByRole('table', { name: 'Counterparties' })
      await expect(table.getByRole('row').nth(1)).toBeVisible({ timeout: 20_000 })
      await expect(main.getByText(/this view makes no requests of its own/)).toBeVisible()
      await expect(main.getByText(/Complete from/)).toBeVisible()
      await expect(main.getByRole('button', { name: 'Load the rest' })).toBeVisible()
      // Two more pages: the table grows from what is loaded, not from requests of its own.
      await main.getByRole('tab', { name: 'Transactions' }).click()
      await expect(main.getByRole('table', { name: 'Transactions' }).getByRole('row').nth(1)).toBeVisible({
        timeout: 20_000,
      })
      // The button is named by what it shows (the short hash); its title holds the full hash.
      const firstDetails = main
        .getByRole('button', { name: /^Transaction 0x[0-9a-f]{6}…[0-9a-f]{6}, open details$/ })
        .first()
      cachedHash = (await firstDetails.getAttribute('title')) ?? ''
      expect(cachedHash).toMatch(/^0x[0-9a-f]{64}$/)
      await main.getByRole('tab', { name: 'Counterparties' }).click()
      const before = await table.getByRole('row').count()
      expect(before).toBeGreaterThan(2)
      await table.getByRole('button', { name: /Transactions in \/ out/ }).click()
      await expect(table.getByRole('columnheader', { name: /Transactions in \/ out/ })).toHaveAttribute(
        'aria-sort',
        /ascending|descending/,
      )
      await expect(main.getByRole('img', { name: /^Top \d+ counterparties by transactions/ })).toBeVisible()
      await shootBothThemes(page, testInfo, 'a1-whale-counterparties')
      const filter = main.getByRole('searchbox', { name: 'Filter counterparties' })
      await filter.fill('zzzz-no-such')
      await expect(main.getByText('No counterparty matches.')).toBeVisible()
      await filter.fill('')
      await expect(table.getByRole('row')).toHaveCount(before)
    })

    await test.step('whale: balance history with a range', async () => {
      await main.getByRole('tab', { name: 'Balance history' }).click()
      await expect(main.getByRole('combobox', { name: 'Asset' })).toBeVisible()
      await expect(main.getByText(/Complete from/)).toBeVisible()
      await expect(main.getByRole('img', { name: /balance from/ })).toBeVisible()
      await main.getByRole('combobox', { name: 'Range' }).selectOption('30d')
      await expect(main.getByText(/today:/)).toBeVisible()
      await main.getByRole('combobox', { name: 'Range' }).selectOption('all')
      await shootBothThemes(page, testInfo, 'a2-whale-history')
    })

    await test.step('whale: a click on a counterparty opens it', async () => {
      await main.getByRole('tab', { name: 'Counterparties' }).click()
      const link = main
        .getByRole('table', { name: 'Counterparties' })
        .getByRole('link', { name: /0x[0-9a-fA-F]{40}/ })
        .first()
      // The pivot's title: "<checksummed address> on <network>".
      const label = (await link.getAttribute('title')) ?? ''
      const target = label.split(' ')[0]!
      await link.click()
      await expect(page.getByRole('heading', { level: 1, name: target })).toBeVisible()
      await page.goBack()
      await expect(page.getByRole('heading', { level: 1, name: whale! })).toBeVisible()
    })

    await test.step('a note on a transaction shows in the list and its detail', async () => {
      await main.getByRole('tab', { name: 'Transactions' }).click()
      await main
        .getByRole('button', { name: `Transaction ${cachedHash.slice(0, 8)}…${cachedHash.slice(-6)}, open details` })
        .click()
      const dialog = page.getByRole('dialog')
      await dialog.getByRole('button', { name: 'Add a note on this transaction' }).click()
      await dialog.getByRole('textbox', { name: /Note on this transaction/ }).fill('Refund for order 77')
      await dialog.getByRole('button', { name: 'Save note' }).click()
      await expect(dialog.getByText('Refund for order 77')).toBeVisible()
      await dialog.getByRole('button', { name: 'Close details' }).click()
      await expect(
        main.getByRole('table', { name: 'Transactions' }).getByText('note', { exact: true }).first(),
      ).toBeVisible()
    })

    await test.step('a watch entry on both networks; the address note shows in the list', async () => {
      await main.getByRole('button', { name: 'Add to watchlist' }).click()
      const dialog = page.getByRole('dialog', { name: 'Add to watchlist' })
      await dialog.getByLabel('New watchlist name').fill('Desks')
      await dialog.getByLabel('Label').fill('The busy whale')
      await dialog.getByRole('checkbox', { name: /^Also watch it on / }).check()
      await dialog.getByRole('button', { name: 'Add' }).click()
      await expect(dialog).toBeHidden()
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Watchlists' }).click()
      const entries = page.getByRole('table', { name: 'Entries of Desks' })
      await expect(entries.getByRole('row').nth(1)).toContainText(new RegExp(` \\+ ${service!.info.networks[1]}`, 'i'))
      await expect(entries).toContainText('Address note: Market maker, watch the USDC outflows')
    })

    await test.step('holder: several token kinds in counterparties and history', async () => {
      await open(holder!)
      await main.getByRole('tab', { name: 'Counterparties' }).click()
      await main.getByRole('button', { name: 'Load the first page of transactions' }).click()
      await expect(main.getByRole('table', { name: 'Counterparties' }).getByRole('row').nth(1)).toBeVisible({
        timeout: 20_000,
      })
      // A few pages: "load the rest" says its cost, then the views are complete.
      await main.getByRole('button', { name: 'Load the rest' }).click()
      await expect(main.getByText(/Every page is loaded: complete from the first transaction/)).toBeVisible({
        timeout: 60_000,
      })
      await shootBothThemes(page, testInfo, 'a3-holder-counterparties')
      await main.getByRole('tab', { name: 'Balance history' }).click()
      const asset = main.getByRole('combobox', { name: 'Asset' })
      await expect(asset).toBeVisible()
      const options = await asset.getByRole('option').allTextContents()
      expect(options.length).toBeGreaterThan(2)
      await asset.selectOption({ index: options.length - 1 })
      await expect(main.getByRole('img', { name: /balance from/ })).toBeVisible()
      await shootBothThemes(page, testInfo, 'a4-holder-history')
    })

    await test.step('one click switches to the other network', async () => {
      const both = main.getByRole('region', { name: 'Both networks' })
      await both.getByRole('button', { name: /^Open on / }).click()
      await expect(page).toHaveURL(new RegExp(`/address/${service!.info.networks[1]}/`))
      await expect(both.getByText('Shown now')).toBeVisible()
      // The switch asks again, but the answers of the last two minutes are reused for free.
      await expect(both).toContainText('This check cost no units')
      await expect(both.getByRole('listitem').first()).toContainText('token kinds')
      await shootBothThemes(page, testInfo, 'a5-other-network')
    })

    await test.step('search finds notes and labels online', async () => {
      await search.fill('refund order')
      const results = page.getByRole('region', { name: 'Cached search results' })
      await expect(results.getByRole('button', { name: /Note/ }).first()).toBeVisible()
      await search.fill('market maker')
      await expect(results.getByRole('button', { name: /Note on address/ })).toBeVisible()
      await search.fill('busy whale')
      await expect(results.getByRole('button', { name: /Watched The busy whale/ })).toBeVisible()
      await search.press('Escape')
    })

    await test.step('the service stops; the search still finds and opens a cached transaction', async () => {
      await service!.stop()
      service = null
      await search.fill(cachedHash.slice(0, 14))
      const results = page.getByRole('region', { name: 'Cached search results' })
      await expect(results).toContainText('no request, works offline')
      const hit = results.getByRole('button', { name: new RegExp(`Transaction ${cachedHash.slice(0, 10)}`) })
      await expect(hit).toBeVisible()
      await shootBothThemes(page, testInfo, 'a6-offline-search', { fullPage: false })
      await hit.click()
      const dialog = page.getByRole('dialog')
      await expect(dialog.getByRole('heading', { name: 'Transaction details' })).toBeVisible()
      await expect(dialog).toContainText(cachedHash)
      await expect(dialog.getByText('Refund for order 77')).toBeVisible()
      await shootBothThemes(page, testInfo, 'a7-offline-cached-tx', { fullPage: false })
    })
  } finally {
    await service?.stop()
  }
})

import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { expect, test } from './fixtures'
import {
  addToNewWatchlist,
  fillServiceForm,
  countFiles,
  filesContaining,
  stopServiceUnderRefresh,
  shootBothThemes,
  startServiceSandbox,
  unnamedControls,
  type ServiceSandbox,
} from './ui-helpers'

/**
 * A new analyst's first session, end to end, on the web host against a sandbox that stands in
 * for the real service: connect with a key (first a wrong one), search, balances, transactions
 * across pages, the detail panel, exports, the RPC console, watchlists, the offline view after
 * the service stops, and finally a search for the key everywhere it must not be.
 */
test('an analyst connects, explores, exports, keeps a watchlist and goes offline; the key leaks nowhere', async ({
  app,
  dataDir,
}, testInfo) => {
  test.setTimeout(240_000)
  const page = app
  const apiKey = `e2e_${randomBytes(12).toString('hex')}`
  const wrongKey = `bad_${randomBytes(12).toString('hex')}`
  const consoleLines: string[] = []
  page.on('console', (m) => consoleLines.push(m.text()))
  page.on('pageerror', (e) => consoleLines.push(`pageerror: ${e.message}`))
  // Chromium asks before a page reads the clipboard; the test reads what the app copied.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])

  // --admin: the offline step holds the service's answers (fault switch) to order its events.
  let service: ServiceSandbox | null = await startServiceSandbox(['--api-key', apiKey, '--admin'])
  try {
    const whale = service.info.demo_addresses.alpha!.whale!
    const main = page.getByRole('main')

    await test.step('first run: the welcome explains both ways to start', async () => {
      await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Chainscope' })).toBeVisible()
      await expect(page.getByRole('button', { name: 'Start the sandbox' })).toBeEnabled()
      await shootBothThemes(page, testInfo, '01-welcome')
      expect(await unnamedControls(page), 'controls without a name on 01-welcome').toEqual([])
    })

    await test.step('a wrong key is rejected in plain words', async () => {
      await fillServiceForm(page, service!.info)
      await page.getByLabel('API key', { exact: true }).fill(wrongKey)
      await page.getByRole('button', { name: 'Save and test' }).click()
      await expect(page.getByRole('alert').filter({ hasText: 'The service refused the API key' })).toBeVisible()
      await expect(
        page.getByText('The service refused this key. Paste it again from the developer portal.'),
      ).toBeVisible()
      // The field was emptied as soon as the key went to main; only its last four are shown.
      await expect(page.getByLabel('API key', { exact: true })).toHaveValue('')
      await expect(page.getByText(`set · …${wrongKey.slice(-4)}`)).toBeVisible()
    })

    await test.step('the right key works and the explorer opens', async () => {
      await page.getByLabel('API key', { exact: true }).fill(apiKey)
      await page.getByRole('button', { name: 'Save and test' }).click()
      await expect(page.getByRole('heading', { level: 1, name: 'Open an address' })).toBeVisible({ timeout: 20_000 })
      await expect(page.getByRole('radio', { name: 'Alpha' })).toBeChecked()
      await expect(page.getByRole('meter', { name: 'Daily request quota' })).toBeVisible()
      await expect(page.getByRole('status', { name: 'Connection' })).toHaveText('Online')
      await shootBothThemes(page, testInfo, '02-home')
      expect(await unnamedControls(page), 'controls without a name on 02-home').toEqual([])
    })

    const search = page.getByRole('search', { name: 'Address search' }).getByRole('combobox', { name: 'Address' })
    const searchMessage = page.getByRole('search', { name: 'Address search' }).getByRole('alert')

    await test.step('search explains bad input precisely (keyboard only)', async () => {
      await page.keyboard.press('Control+K')
      await expect(search).toBeFocused()
      await page.keyboard.type('0x123')
      await page.keyboard.press('Enter')
      await expect(searchMessage).toHaveText('An address has 40 hex characters after 0x; this one has 3.')
      await search.fill(`${whale.slice(0, 41)}g`)
      await search.press('Enter')
      await expect(searchMessage).toHaveText('Character 42 ("g") is not a hex digit.')
      // Flip the case of one letter: the EIP-55 checksum no longer matches.
      const i = whale.search(/[a-fA-F]/)
      const flipped =
        whale.slice(0, i) +
        (whale[i] === whale[i]!.toLowerCase() ? whale[i]!.toUpperCase() : whale[i]!.toLowerCase()) +
        whale.slice(i + 1)
      await search.fill(flipped)
      await search.press('Enter')
      await expect(searchMessage).toContainText('checksum (EIP-55) does not match')
      await search.fill(whale)
      await expect(searchMessage).toBeHidden()
      await search.press('Enter')
      await expect(page.getByRole('heading', { level: 1, name: whale })).toBeVisible()
    })

    await test.step('balances: exact amounts, fiat, filters and the allocation chart', async () => {
      const table = main.getByRole('table', { name: 'Token balances' })
      await expect(table.getByRole('row').nth(1)).toBeVisible({ timeout: 20_000 })
      const rows = await table.getByRole('row').count()
      expect(rows).toBeGreaterThan(3)
      await expect(main.getByRole('status', { name: 'Data freshness' })).toContainText('Fetched')
      await expect(table).toContainText('$')
      await expect(main.getByRole('img', { name: /^Allocation by fiat value: / })).toBeVisible()
      await main.getByLabel('Token type').selectOption('ERC-20')
      const erc20 = await table.getByRole('row').count()
      expect(erc20).toBeLessThanOrEqual(rows)
      await main.getByLabel('Token type').selectOption('all')
      await main.getByRole('button', { name: /^Symbol/ }).click()
      await expect(main.getByRole('columnheader', { name: /^Symbol/ })).toHaveAttribute('aria-sort', 'ascending')
      await shootBothThemes(page, testInfo, '03-balances')
      expect(await unnamedControls(page), 'controls without a name on 03-balances').toEqual([])
    })

    const txTable = main.getByRole('table', { name: 'Transactions' })
    const loaded = main.getByRole('status', { name: 'Loaded transactions' })

    await test.step('transactions: the list loads further pages while scrolling', async () => {
      await main.getByRole('tab', { name: 'Transactions' }).click()
      await expect(loaded).toHaveText(/^50 loaded in 1 page$/, { timeout: 20_000 })
      await expect(txTable.getByRole('row').nth(1)).toBeVisible()
      await txTable.hover()
      for (let i = 0; i < 30 && !/in [3-9]\d* pages|in \d{2,} pages/.test((await loaded.textContent()) ?? ''); i++)
        await page.mouse.wheel(0, 1500)
      await expect(loaded).toHaveText(/^\d+ loaded in ([3-9]|\d{2,}) pages/)
      await expect(main.getByRole('img', { name: /^Activity over time: / })).toBeVisible()
      await main.getByLabel('Direction').selectOption('in')
      await expect(loaded).toHaveText(/^\d+ of \d+ loaded/)
      await main.getByLabel('Direction').selectOption('all')
      await shootBothThemes(page, testInfo, '04-transactions')
      expect(await unnamedControls(page), 'controls without a name on 04-transactions').toEqual([])
    })

    await test.step('the detail panel shows every field with copy buttons', async () => {
      const first = txTable
        .getByRole('button', { name: /^Transaction 0x[0-9a-f]{6}…[0-9a-f]{6}, open details$/ })
        .first()
      const hash = (await first.getAttribute('title')) ?? ''
      expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
      await first.click()
      const dialog = page.getByRole('dialog', { name: 'Transaction details' })
      await expect(dialog).toBeVisible()
      for (const heading of [
        'Overview',
        'From and to',
        'Value and fee breakdown',
        'Decoded input',
        'Token transfers',
        'Actions',
        /^Raw input/,
      ]) {
        await expect(dialog.getByRole('heading', { name: heading })).toBeVisible()
      }
      for (const field of [
        'Block',
        'Confirmations',
        'Gas used',
        'Base fee per gas',
        'Burnt fee',
        'Internal call errors',
      ]) {
        await expect(dialog.getByRole('term').filter({ hasText: new RegExp(`^${field}$`) })).toBeVisible()
      }
      await dialog.getByRole('button', { name: 'Copy hash', exact: true }).click()
      await expect.poll(() => page.evaluate('navigator.clipboard.readText()')).toBe(hash)
      await shootBothThemes(page, testInfo, '05-transaction-detail', { fullPage: false })
      expect(await unnamedControls(page), 'controls without a name on 05-transaction-detail').toEqual([])
      await dialog.getByRole('button', { name: 'Close details' }).click()
      await expect(dialog).toBeHidden()
    })

    await test.step('load all shows progress and can be cancelled (under slow limits set in Settings)', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
      await page.getByLabel('Units per second').fill('2')
      await page.getByLabel('Burst', { exact: true }).fill('1')
      await page.getByRole('button', { name: 'Save limits' }).click()
      await shootBothThemes(page, testInfo, '06-settings')
      expect(await unnamedControls(page), 'controls without a name on 06-settings').toEqual([])
      await page.goBack()
      await main.getByRole('tab', { name: 'Transactions' }).click()
      await main.getByRole('button', { name: 'Load all' }).click()
      const progress = main.getByRole('status').filter({ hasText: /transactions in \d+ pages$/ })
      await expect(progress).toBeVisible()
      await expect(main.getByRole('progressbar', { name: /^Loading all transactions/ })).toBeVisible()
      await main.getByRole('button', { name: 'Cancel loading' }).click()
      await expect(
        main.getByRole('status').filter({ hasText: /^Stopped at [\d,]+ transactions in \d+ pages\.$/ }),
      ).toBeVisible()
      await expect(loaded).not.toContainText('all loaded')
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
      await page.getByLabel('Units per second').fill('50')
      await page.getByLabel('Burst', { exact: true }).fill('5')
      await page.getByRole('button', { name: 'Save limits' }).click()
      await page.goBack()
    })

    await test.step('export every loaded transaction and the balances', async () => {
      await main.getByRole('tab', { name: 'Transactions' }).click()
      const count = Number(((await loaded.textContent()) ?? '').replace(/,/g, '').match(/^(\d+) loaded/)?.[1])
      expect(count).toBeGreaterThanOrEqual(150)
      await main.getByRole('button', { name: 'Export' }).click()
      const [csvDownload] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: 'Transactions as CSV' }).click(),
      ])
      const csv = readFileSync((await csvDownload.path())!, 'utf8')
        .trim()
        .split('\r\n')
      expect(csv[0]).toMatch(/^hash,timestamp,block,/)
      expect(csv).toHaveLength(count + 1)
      await main.getByRole('button', { name: 'Export' }).click()
      const [jsonDownload] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: 'Balances as JSON' }).click(),
      ])
      const balances = JSON.parse(readFileSync((await jsonDownload.path())!, 'utf8')) as {
        address: string
        items: { value: string }[]
      }
      expect(balances.address.toLowerCase()).toBe(whale.toLowerCase())
      expect(balances.items.length).toBeGreaterThan(3)
      expect(balances.items.every((i) => /^\d+$/.test(i.value))).toBe(true)
    })

    await test.step('RPC console: form validation, raw JSON, decoded results and history', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'RPC console' }).click()
      await page.getByLabel('Method', { exact: true }).selectOption('eth_getBalance')
      await page.getByLabel('address', { exact: true }).fill('0x12')
      await page.getByRole('button', { name: 'Send' }).click()
      await expect(page.getByText('An address has 40 hex characters after 0x; this one has 2.')).toBeVisible()
      await page.getByLabel('address', { exact: true }).fill(whale)
      await page.getByRole('button', { name: 'Send' }).click()
      await expect(page.getByTestId('rpc-result')).toContainText(/= [\d,]+/)
      await page.getByRole('radio', { name: 'Raw JSON' }).check()
      await page.getByLabel('Request JSON').fill('{"method": "eth_blockNumber", "params": [')
      await page.getByRole('button', { name: 'Send' }).click()
      await expect(page.getByText(/^Not valid JSON/)).toBeVisible()
      await page.getByLabel('Request JSON').fill('{"method": "eth_blockNumber", "params": []}')
      await page.getByRole('button', { name: 'Send' }).click()
      await expect(page.getByText('eth_blockNumber answered in')).toBeVisible()
      const history = page.getByRole('table', { name: 'RPC history' })
      await expect(history.getByRole('row')).toHaveCount(3)
      await expect(history).toContainText('eth_getBalance')
      await shootBothThemes(page, testInfo, '07-rpc-console')
      expect(await unnamedControls(page), 'controls without a name on 07-rpc-console').toEqual([])
    })

    await test.step('watchlists: add the open address, refresh, export and import', async () => {
      await page.getByRole('link', { name: 'Chainscope home' }).click()
      await page.getByRole('button', { name: `Open ${whale} on Alpha` }).click()
      await addToNewWatchlist(page, {
        list: 'Whales',
        label: 'Busy whale',
        note: 'Seeded by the sandbox',
        tags: 'demo, busy',
      })

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Watchlists' }).click()
      const entries = page.getByRole('table', { name: 'Entries of Whales' })
      await expect(entries).toContainText('Busy whale')
      await expect(entries).toContainText(/\d+ tokens/)
      await page.getByRole('button', { name: 'Refresh all' }).click()
      await expect(page.getByRole('status').filter({ hasText: /^Refreshed 1 of 1\.$/ })).toBeVisible()
      await entries.getByRole('button', { name: 'Refresh Busy whale' }).click()
      await expect(entries.getByRole('cell', { name: /^(just now|\d+ s ago)$/ })).toBeVisible()

      const [jsonDownload] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export JSON' }).click(),
      ])
      const exported = readFileSync((await jsonDownload.path())!, 'utf8')
      expect(exported.toLowerCase()).toContain(whale.toLowerCase())
      const [csvDownload] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export CSV' }).click(),
      ])
      const csv = readFileSync((await csvDownload.path())!, 'utf8')
        .trim()
        .split(/\r?\n/)
      expect(csv[0]).toContain('address')

      // A file with one bad row imports nothing and names the row.
      const bad = `${csv[0]}\r\n${csv[1]}\r\n${csv[1]!.replace(/0x[0-9a-fA-F]{40}/, '0xnot-an-address')}\r\n`
      await page
        .getByLabel('Import watchlists file')
        .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) })
      await expect(page.getByRole('alert').filter({ hasText: 'Nothing was imported' })).toBeVisible()
      await expect(page.getByRole('list', { name: 'Problems by row' })).toContainText('Row')
      await expect(page.getByRole('navigation', { name: 'Watchlists' }).getByRole('button')).toHaveCount(1)

      await page
        .getByLabel('Import watchlists file')
        .setInputFiles({ name: 'whales.json', mimeType: 'application/json', buffer: Buffer.from(exported) })
      await expect(page.getByText(/^Imported 1 entries into 1 list\.$/)).toBeVisible()
      await expect(page.getByRole('navigation', { name: 'Watchlists' }).getByRole('button')).toHaveCount(2)
      await shootBothThemes(page, testInfo, '08-watchlists')
      expect(await unnamedControls(page), 'controls without a name on 08-watchlists').toEqual([])
    })

    await test.step('the service stops: saved data is shown "as of", network actions say why they are off', async () => {
      // Open the address while the service still answers: opening it also checks both
      // networks, which would tell main it is offline (and disable Refresh) before the click.
      await page.getByRole('link', { name: 'Chainscope home' }).click()
      await page.getByRole('button', { name: `Open ${whale} on Alpha` }).click()
      await expect(main.getByRole('table', { name: 'Token balances' }).getByRole('row').nth(1)).toBeVisible()
      await stopServiceUnderRefresh(page, service!)
      service = null
      await expect(main.getByRole('status', { name: 'Data freshness' })).toHaveText(
        /^Saved copy as of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d .*the service cannot be reached\.$/,
        { timeout: 30_000 },
      )
      await expect(page.getByRole('status', { name: 'Connection' })).toHaveText(/answering since \d\d:\d\d · retrying/)
      await expect(main.getByRole('button', { name: 'Refresh' })).toBeDisabled()
      await expect(
        main.getByRole('note').filter({ hasText: /answering since .*Saved copies are shown\.$/ }),
      ).toBeVisible()
      await main.getByRole('tab', { name: 'Transactions' }).click()
      await expect(txTable.getByRole('row').nth(1)).toBeVisible()
      await expect(main.getByRole('status', { name: 'Data freshness' })).toHaveText(
        /^As of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d .*offline/,
      )
      await expect(main.getByRole('button', { name: 'Load all' })).toBeDisabled()
      await shootBothThemes(page, testInfo, '09-offline')
      expect(await unnamedControls(page), 'controls without a name on 09-offline').toEqual([])
    })

    await test.step('the key is nowhere: page, storage, console, data folder, logs', async () => {
      for (const key of [apiKey, wrongKey]) {
        const frames = await Promise.all(page.frames().map((f) => f.content()))
        expect(frames.join('\n')).not.toContain(key)
        const storage = String(
          await page.evaluate(
            'JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie, location.href])',
          ),
        )
        expect(storage).not.toContain(key)
        expect(consoleLines.join('\n')).not.toContain(key)
        expect(filesContaining(dataDir, key)).toEqual([])
      }
      // The search looked at something: the app wrote its data and logs there.
      expect(countFiles(dataDir)).toBeGreaterThan(2)
      expect(filesContaining(dataDir, 'web host listening').length).toBeGreaterThan(0)
      expect(consoleLines.filter((l) => l.startsWith('pageerror'))).toEqual([])
    })
  } finally {
    await service?.stop()
  }
})

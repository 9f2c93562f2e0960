import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import Papa from 'papaparse'
import { dataUrl, http } from '../sandbox/test-helpers'
import { expect, test } from './fixtures'
import { auditBothThemes, BLOCKING_IMPACTS, BLOCKING_RULES, describeFindings } from './axe'
import { connectService, shootBothThemes, startServiceSandbox, type ServiceSandbox } from './ui-helpers'

/**
 * The flow graph of the busy sandbox wallet (whale) on the web host: two hops expanded with
 * their cost shown and confirmed, an asset filter, a path found, axe in both themes.
 */
test('flow graph: expand two hops with the cost confirmed, filter by asset, find a path', async ({ app }, testInfo) => {
  test.setTimeout(300_000)
  const page = app
  const key = `e2e_${randomBytes(10).toString('hex')}`
  const service: ServiceSandbox = await startServiceSandbox(['--api-key', key])
  try {
    await connectService(page, service.info, key)
    const { whale } = service.info.demo_addresses.alpha!
    const main = page.getByRole('main')
    const search = page.getByRole('combobox', { name: 'Address' })
    await search.fill(whale!)
    await search.press('Enter')
    await main.getByRole('tab', { name: 'Flow graph' }).click()
    const canvas = main.getByRole('img', { name: /^Flow graph: \d+ addresses and \d+ edges within 2 hops\.$/ })
    await expect(canvas).toBeVisible({ timeout: 30_000 })
    const edges = main.getByRole('table', { name: /^Value moved, per sender, receiver and asset/ })
    await expect(edges.getByRole('row').nth(1)).toBeVisible({ timeout: 30_000 })

    await test.step('the seeded data: every edge of the whale equals a sum worked out here from the raw page', async () => {
      // The service's own first page, read raw (not through the app's schema or adapter).
      type Party = { hash: string } | null
      type Raw = {
        from: Party
        to: Party
        value: string
        status: string | null
        result: string
        token_transfers:
          { from: Party; to: Party; token: { address: string }; total: { value?: string | null } }[] | null
      }
      const raw = await http<{ items: Raw[] }>(
        dataUrl(service.info.base_url, 'alpha', 'transactions', { api_key: key, address: whale! }),
      )
      expect(raw.status).toBe(200)
      const me = whale!.toLowerCase()
      const expected = new Map<string, bigint>()
      const add = (from: Party, to: Party, asset: string, value: bigint): void => {
        const [f, t] = [from?.hash.toLowerCase(), to?.hash.toLowerCase()]
        if (!f || !t || f === t || value === 0n || (f !== me && t !== me)) return
        const k = `${f}>${t}>${asset}`
        expected.set(k, (expected.get(k) ?? 0n) + value)
      }
      for (const tx of raw.json.items) {
        if (tx.status !== 'ok' || tx.result !== 'success') continue
        add(tx.from, tx.to, 'native', BigInt(tx.value))
        for (const tr of tx.token_transfers ?? [])
          add(tr.from, tr.to, tr.token.address.toLowerCase(), tr.total.value ? BigInt(tr.total.value) : 1n)
      }
      expect(expected.size).toBeGreaterThan(3)
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        main.getByRole('button', { name: 'Export edges as CSV' }).click(),
      ])
      const rows = Papa.parse<string[]>(readFileSync((await download.path())!, 'utf8').trim()).data.slice(1)
      const got = new Map<string, bigint>()
      for (const r of rows) if (r[0] === me || r[2] === me) got.set(`${r[0]}>${r[2]}>${r[4]}`, BigInt(r[6]!))
      expect(got).toEqual(expected)
    })

    await test.step('hop 1: expand all, the cost shown before and confirmed', async () => {
      const expandAll = main.getByRole('button', { name: 'Expand all at hop 1' })
      await expect(main.getByLabel(/^Expand all at hop 1 costs \d+ units? \(/)).toBeVisible()
      await expandAll.click()
      const dialog = page.getByRole('alertdialog', { name: 'Expand all at hop 1?' })
      await expect(dialog).toContainText(/This costs \d+ units? \([\d.]+ % of the \d+ left today\)\./)
      await dialog.getByRole('button', { name: 'Run' }).click()
      await expect(main.getByRole('button', { name: 'Expand all at hop 1' })).toBeHidden({ timeout: 120_000 })
      await expect(main.getByRole('progressbar')).toBeHidden({ timeout: 120_000 })
    })

    let hop2 = ''
    await test.step('hop 2: one address, picked from the list by keyboard, expanded', async () => {
      const item = main
        .getByRole('listitem')
        .filter({ hasText: /hop 2(?!.*loaded)/ })
        .first()
      const pick = item.getByRole('button')
      await pick.focus()
      await page.keyboard.press('Enter')
      await expect(pick).toHaveAttribute('aria-pressed', 'true')
      const selected = main.getByRole('region', { name: 'Selected address' })
      hop2 = (await selected.locator('p.mono').textContent())!.trim()
      expect(hop2).toMatch(/^0x[0-9a-f]{40}$/)
      await expect(selected.getByLabel(/^Expand costs 1 unit \(/)).toBeVisible()
      await selected.getByRole('button', { name: 'Expand', exact: true }).click()
      const dialog = page.getByRole('alertdialog', { name: 'Expand?' })
      await expect(dialog).toContainText(/This costs 1 unit\b/)
      await dialog.getByRole('button', { name: 'Run' }).click()
      await expect(selected.getByText(/loaded/)).toBeVisible({ timeout: 60_000 })
      await shootBothThemes(page, testInfo, 'f1-whale-two-hops')
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme })
        await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))')
        await canvas.screenshot({ path: testInfo.outputPath(`f1-graph-${colorScheme}.png`) })
      }
      await page.emulateMedia({ colorScheme: 'light' })
    })

    await test.step('find a path to the hop-2 address', async () => {
      await main.getByRole('region', { name: 'Selected address' }).getByRole('button', { name: 'Path to here' }).click()
      // Directed first: found, or found ignoring direction and said so — never "No path" for an address on screen.
      await main.getByRole('button', { name: 'Find path' }).click()
      await expect(
        main.getByRole('status').filter({
          hasText: /Path found: (1 hop|2 hops)\.|No directed path; found one ignoring direction: (1 hop|2 hops)/,
        }),
      ).toBeVisible()
      await main.getByRole('checkbox', { name: 'Either direction' }).check()
      await expect(main.getByRole('status').filter({ hasText: 'This answer is for earlier inputs' })).toBeVisible()
      await main.getByRole('button', { name: 'Find path' }).click()
      await expect(main.getByRole('status').filter({ hasText: 'This answer is for earlier inputs' })).toHaveCount(0)
      // Two hops, or one when the hop-2 address's own page shows it dealt with the whale directly.
      const found = main.getByRole('status').filter({ hasText: /Path found: (1 hop|2 hops)\./ })
      await expect(found).toBeVisible()
      expect(await found.getByRole('listitem').count()).toBeGreaterThanOrEqual(1)
    })

    await test.step('filter by one asset', async () => {
      const asset = main.getByRole('combobox', { name: 'Asset' })
      const options = await asset.getByRole('option').allTextContents()
      const token = options.find((o) => o !== 'All assets' && o !== 'coin')!
      expect(token).toBeTruthy()
      await asset.selectOption({ label: token })
      await expect(edges.getByRole('row').nth(1)).toBeVisible()
      const amounts = await edges.locator('tbody tr td:nth-child(3)').allTextContents()
      expect(amounts.length).toBeGreaterThan(0)
      for (const a of amounts) expect(a.trim().endsWith(` ${token}`)).toBe(true)
      await shootBothThemes(page, testInfo, 'f2-whale-one-asset')
    })

    await test.step('axe: nothing serious in either theme', async () => {
      const { findings } = await auditBothThemes(page, 'flow graph')
      const blocking = findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact) || BLOCKING_RULES.includes(f.rule))
      expect(blocking, describeFindings(blocking)).toEqual([])
    })
  } finally {
    await service.stop()
  }
})

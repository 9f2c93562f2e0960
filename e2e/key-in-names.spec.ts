import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser, Page } from '@playwright/test'
import { fixtureDir } from '@shared/testing/blockscout-fixtures'
import { expect, test } from './fixtures'
import { connectReplay, freshKey } from './ui-helpers'

/**
 * A hostile service hands back the API key in the names it supplies, each time hidden from a
 * plain match: a zero-width space, a soft hyphen and word joiner inside it, full-width letters,
 * a token whose name and symbol hold it around a zero-width space. Nothing the page shows and
 * nothing in the downloaded report may read as the key once invisible characters are dropped
 * and compatibility forms folded (issue 43, finding 2).
 */
type Entry = { id: string; item: Record<string, unknown> }
const read = (name: string): { address: string; items: Entry[] } =>
  JSON.parse(readFileSync(join(fixtureDir(), name), 'utf8')) as { address: string; items: Entry[] }

/** Written here, not imported from the app: the test's own idea of what a reader would see. */
const IGNORABLE =
  /[\p{Cf}\p{Cc}\p{Mn}\p{Me}\s\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2800\u3164\uFE00-\uFE0F\uFFA0]/gu
const seen = (text: string): string => text.normalize('NFKC').replace(IGNORABLE, '').toLowerCase()
const fullWidth = (s: string): string =>
  Array.from(s, (c) => (c >= '!' && c <= '~' ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0) : c)).join('')

function replayDir(key: string): { dir: string; address: string; hashes: string[] } {
  const txs = read('transactions.json')
  const base = txs.items.find((e) => e.id === 'base')!.item
  const withToken = txs.items.find((e) => e.id === 'withTokenTransfer')!.item
  const from = base.from as Record<string, unknown>
  const cut = (mark: string): string => `${key.slice(0, 7)}${mark}${key.slice(7)}`
  const names = [cut('\u200B'), cut('\u00AD\u2060'), fullWidth(key)]
  const hashes: string[] = []
  const items: Entry[] = names.map((name, i) => {
    const hash = `0x${(i + 1).toString(16).padStart(64, 'c')}`
    hashes.push(hash)
    const sender = {
      ...from,
      hash: `0x${String(i + 5).repeat(40)}`,
      is_contract: true,
      name,
      ens_domain_name: null,
      public_tags: [],
    }
    return { id: `n${i}`, item: { ...base, hash, from: sender } }
  })
  const transfers = (withToken.token_transfers as Record<string, unknown>[]).map((t) => ({
    ...t,
    token: { ...(t.token as Record<string, unknown>), name: cut('\u200B'), symbol: cut('\uFEFF') },
  }))
  items.push({ id: 'token', item: { ...withToken, token_transfers: transfers } })
  return { dir: writeReplay(txs.address, items), address: txs.address, hashes }
}

/** A replay folder with these transactions and the fixture's balances. */
function writeReplay(address: string, items: Entry[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'chainscope-key-names-'))
  writeFileSync(join(dir, 'transactions.json'), JSON.stringify({ address, items }))
  writeFileSync(join(dir, 'balances.json'), readFileSync(join(fixtureDir(), 'balances.json')))
  return dir
}

/**
 * A token transfer whose amount ends in the key's first character and whose symbol is the rest:
 * no field holds the key, so the bridge lets each pass, but a report writes them side by side.
 */
function joinedReplayDir(key: string): { dir: string; address: string } {
  const txs = read('transactions.json')
  const withToken = txs.items.find((e) => e.id === 'withTokenTransfer')!.item
  const transfers = (withToken.token_transfers as Record<string, unknown>[]).map((t) => ({
    ...t,
    token: { ...(t.token as Record<string, unknown>), symbol: key.slice(1) },
    total: { decimals: '18', value: `3156737370313035${key[0]}` },
  }))
  const items = [{ id: 'token', item: { ...withToken, token_transfers: transfers } }]
  return { dir: writeReplay(txs.address, items), address: txs.address }
}

/** The report file's text and every attribute value, as a browser parses it, with no network. */
async function parsedReport(browser: Browser, file: string): Promise<string> {
  const context = await browser.newContext()
  await context.route('**', (route) =>
    route.request().url().startsWith('file:') ? route.continue() : route.abort('blockedbyclient'),
  )
  try {
    const report = await context.newPage()
    await report.goto(pathToFileURL(file).href)
    await expect(report.getByRole('heading', { level: 1 })).toBeVisible()
    return await everythingShown(report)
  } finally {
    await context.close()
  }
}

/** The document's text and every attribute value (titles, labels, links), as the browser holds them. */
const everythingShown = (page: Page): Promise<string> =>
  page.evaluate<string>(`[document.documentElement.textContent ?? '',
    ...Array.from(document.querySelectorAll('*'), (el) => Array.from(el.attributes, (a) => a.value).join('\\n'))].join('\\n')`)

test('a key the service hides in names is on neither the transactions page nor the downloaded report', async ({
  app,
}, testInfo) => {
  test.setTimeout(180_000)
  const page = app
  const key = freshKey()
  const replay = replayDir(key)
  const service = await connectReplay(page, replay.dir, replay.address, key)
  try {
    const main = page.getByRole('main')
    await main.getByRole('tab', { name: 'Transactions' }).click()
    const list = main.getByRole('table', { name: 'Transactions' })
    await expect(main.getByRole('status', { name: 'Loaded transactions' })).toContainText('4 loaded', {
      timeout: 30_000,
    })
    // Each hostile sender is still shown, by what is left of its name: the key's last four.
    for (const hash of replay.hashes)
      await expect.soft(list.locator(`[data-hash="${hash}"] .party`).first()).toHaveText(`…${key.slice(-4)}`)
    // Soft: a page that shows the key must still be checked for what its report writes.
    expect.soft(seen(await everythingShown(page))).not.toContain(key.toLowerCase())

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      main.getByRole('button', { name: 'Download report' }).click(),
    ])
    const file = testInfo.outputPath('key-in-names-report.html')
    await download.saveAs(file)
    const bytes = readFileSync(file, 'utf8')
    expect.soft(bytes).not.toContain(key)
    expect.soft(seen(bytes)).not.toContain(key.toLowerCase())
    const parsed = await parsedReport(page.context().browser()!, file)
    // The report holds the hostile rows (as redacted names), and never the key itself.
    expect(parsed).toContain(`…${key.slice(-4)}`)
    expect(seen(parsed)).not.toContain(key.toLowerCase())
  } finally {
    await service.stop()
    rmSync(replay.dir, { recursive: true, force: true })
  }
})

test('a report whose fields join into the key is refused by main in words: neither downloaded nor printed', async ({
  app,
}) => {
  test.setTimeout(180_000)
  const page = app
  // Starts with a digit, so an amount can end in its first character.
  const key = `7${freshKey()}`
  const replay = joinedReplayDir(key)
  const service = await connectReplay(page, replay.dir, replay.address, key)
  let downloads = 0
  page.on('download', () => downloads++)
  try {
    const main = page.getByRole('main')
    await main.getByRole('tab', { name: 'Transactions' }).click()
    await expect(main.getByRole('status', { name: 'Loaded transactions' })).toContainText('1 loaded', {
      timeout: 30_000,
    })
    for (const name of ['Download report', 'Print report']) {
      await main.getByRole('button', { name }).click()
      const alert = main.getByRole('alert').filter({ hasText: 'was not saved' })
      await expect(alert).toHaveText(
        /^report-.+\.html was not saved: it holds this profile's API key .*Nothing was written\./,
      )
      expect(await alert.textContent()).not.toContain(key.slice(1))
    }
    expect(downloads).toBe(0)
    expect(await page.locator('iframe').count()).toBe(0)
  } finally {
    await service.stop()
    rmSync(replay.dir, { recursive: true, force: true })
  }
})

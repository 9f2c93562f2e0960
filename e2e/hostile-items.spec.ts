import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fixtureDir } from '@shared/testing/blockscout-fixtures'
import { expect, test } from './fixtures'
import { connectReplay } from './ui-helpers'

/**
 * Hostile service data through the sandbox's replay mode, checked by what the user sees: names
 * made to read as another sender's address, and a balance longer than any uint256.
 */
type Entry = { id: string; item: Record<string, unknown> }
const read = (name: string): { address: string; items: Entry[] } =>
  JSON.parse(readFileSync(join(fixtureDir(), name), 'utf8')) as { address: string; items: Entry[] }

const REAL = `0x${'2'.repeat(40)}`
const senders = [
  { id: 'real', hash: REAL, extra: {} },
  { id: 'name', hash: `0x${'5'.repeat(40)}`, extra: { name: '0x2222…2222' } },
  { id: 'ens', hash: `0x${'6'.repeat(40)}`, extra: { ens_domain_name: '0x2222…2222' } },
  // Drawn right to left: reads "0x2222…2222".
  { id: 'rlo', hash: `0x${'7'.repeat(40)}`, extra: { name: '\u202E2222…2222x0' } },
]

function replayDir(): { dir: string; address: string; hashes: Record<string, string> } {
  const txs = read('transactions.json')
  const bals = read('balances.json')
  const base = txs.items.find((e) => e.id === 'base')!.item
  const from = base.from as Record<string, unknown>
  const hashes: Record<string, string> = {}
  const items = senders.map((s, i) => {
    const hash = `0x${(i + 1).toString(16).padStart(64, 'c')}`
    hashes[s.id] = hash
    return {
      id: s.id,
      item: { ...base, hash, from: { ...from, hash: s.hash, name: null, ens_domain_name: null, ...s.extra } },
    }
  })
  const balance = bals.items[0]!.item
  const token = balance.token as Record<string, unknown>
  const huge = {
    ...balance,
    token: { ...token, address: `0x${'9'.repeat(40)}`, symbol: 'HUGE' },
    value: '7'.repeat(79),
  }
  const dir = mkdtempSync(join(tmpdir(), 'chainscope-hostile-'))
  writeFileSync(join(dir, 'transactions.json'), JSON.stringify({ address: txs.address, items }))
  writeFileSync(
    join(dir, 'balances.json'),
    JSON.stringify({ address: bals.address, items: [bals.items[0], { id: 'huge', item: huge }] }),
  )
  return { dir, address: txs.address, hashes }
}

test('names that look like an address are marked in the list; a 79-digit balance is an unreadable item', async ({
  app,
}) => {
  test.setTimeout(180_000)
  const page = app
  const replay = replayDir()
  const service = await connectReplay(page, replay.dir, replay.address)
  try {
    const main = page.getByRole('main')

    // Balances: the fixture's row reads, the 79-digit one is a marked, counted row.
    const balances = main.getByRole('table', { name: 'Token balances' })
    await expect(balances.getByTestId('unreadable-row')).toHaveCount(1, { timeout: 30_000 })
    await expect(balances.getByTestId('unreadable-row')).toContainText('value')
    await expect(main.getByText('1 loaded, 1 unreadable')).toBeVisible()

    await main.getByRole('tab', { name: 'Transactions' }).click()
    const list = main.getByRole('table', { name: 'Transactions' })
    await expect(main.getByRole('status', { name: 'Loaded transactions' })).toContainText('4 loaded', {
      timeout: 30_000,
    })
    const sender = (id: string) => list.locator(`[data-hash="${replay.hashes[id]}"] .party`).first()
    await expect(sender('real')).toHaveText('0x2222…2222')
    await expect(sender('name')).toHaveText('name “0x2222…2222”')
    await expect(sender('ens')).toHaveText('name “0x2222…2222”')
    await expect(sender('rlo')).toHaveText('2222…2222x0')
    // What the page holds, not only what it draws: no bidi control reached the document.
    expect(await sender('rlo').evaluate((el) => /[\u202A-\u202E\u2066-\u2069]/.test(el.textContent ?? ''))).toBe(false)
    // Each sender's address is still one hover away.
    await expect(sender('name')).toHaveAttribute('title', /^0x5555/)
  } finally {
    await service.stop()
    rmSync(replay.dir, { recursive: true, force: true })
  }
})

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { fixtureDir } from '@shared/testing/blockscout-fixtures'
import { expect, test } from './fixtures'
import { connectReplay, shootBothThemes } from './ui-helpers'

/**
 * Blockscout's own items (shared/fixtures/blockscout) served through the sandbox's replay mode,
 * checked by what the user sees; plus extreme values (2^256−1, 60+ character symbols, null
 * names, 0 decimals, 78-digit ids) and one broken item, which must not hide the others.
 */
type Entry = { id: string; item: Record<string, unknown> }
const read = (name: string): { address: string; items: Entry[] } =>
  JSON.parse(readFileSync(join(fixtureDir(), name), 'utf8')) as { address: string; items: Entry[] }

const MAX = (2n ** 256n - 1n).toString()

const ID78 = '1'.repeat(78)
const LONG = `ipfs://${'Qm'.repeat(32)}`

function replayDir(): { dir: string; address: string; txs: Entry[]; bals: Entry[] } {
  const txs = read('transactions.json')
  const bals = read('balances.json')
  const base = txs.items.find((e) => e.id === 'base')!.item
  const extremeTx = { ...base, hash: `0x${'e'.repeat(64)}`, value: MAX, fee: { type: 'actual', value: MAX } }
  const broken = { ...base, hash: `0x${'b'.repeat(64)}`, value: { amount: 1 } }
  const token = bals.items[0]!.item.token as Record<string, unknown>
  const extremeBals = [
    {
      token: {
        ...token,
        address: `0x${'1'.repeat(40)}`,
        name: null,
        symbol: LONG,
        decimals: '0',
        exchange_rate: '1.5',
      },
      token_id: null,
      token_instance: null,
      value: MAX,
    },
    {
      token: {
        ...token,
        address: `0x${'2'.repeat(40)}`,
        name: 'Very long collection',
        symbol: LONG,
        decimals: null,
        type: 'ERC-1155',
        exchange_rate: null,
      },
      token_id: ID78,
      token_instance: null,
      value: MAX,
    },
  ]
  const dir = mkdtempSync(join(tmpdir(), 'chainscope-replay-'))
  const wrap = (item: unknown, id: string) => ({ id, item })
  writeFileSync(
    join(dir, 'transactions.json'),
    JSON.stringify({ address: txs.address, items: [...txs.items, wrap(extremeTx, 'extreme'), wrap(broken, 'broken')] }),
  )
  writeFileSync(
    join(dir, 'balances.json'),
    JSON.stringify({
      address: bals.address,
      items: [...bals.items, ...extremeBals.map((b, i) => wrap(b, `extreme${i}`))],
    }),
  )
  return { dir, address: txs.address, txs: txs.items, bals: bals.items }
}

/** Columns inside the viewport, or their container scrolls sideways to reach them: nothing clipped for good. */
async function expectNoClipping(page: Page, table: Locator, scroller: Locator): Promise<void> {
  const viewport = page.viewportSize()!.width
  const box = await scroller.evaluate((el) => ({
    scrollWidth: el.scrollWidth,
    clientWidth: el.clientWidth,
    overflowX: el.ownerDocument.defaultView?.getComputedStyle(el).overflowX ?? '',
    left: el.getBoundingClientRect().left,
  }))
  const headers = await table
    .locator('th, [role="columnheader"]')
    .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right))
  for (const right of headers) {
    const inside = right <= viewport + 1
    const reachable = ['auto', 'scroll'].includes(box.overflowX) && right - box.left <= box.scrollWidth + 1
    expect(
      inside || reachable,
      `a column ends at ${right}px, viewport ${viewport}px, scroller ${JSON.stringify(box)}`,
    ).toBe(true)
  }
}

test('real-world items: all 20 transactions and 16 balances shown as they are, extreme values fit', async ({
  app,
}, testInfo) => {
  test.setTimeout(180_000)
  const page = app
  const replay = replayDir()
  const service = await connectReplay(page, replay.dir, replay.address)
  try {
    const main = page.getByRole('main')

    // Balances: the coin (an asset like the others, docs/decisions/coin-as-asset.md), 16 fixture
    // rows + 2 extreme ones, exact amounts with decimals.
    const balances = main.getByRole('table', { name: 'Token balances' })
    await expect(balances.getByRole('row').nth(1)).toBeVisible({ timeout: 30_000 })
    const hideZero = main.getByLabel('Hide zero and unknown balances')
    if (await hideZero.isChecked()) await hideZero.uncheck()
    await expect(balances.locator('tbody tr')).toHaveCount(19)
    const balRow = (text: string) => balances.locator('tbody tr').filter({ hasText: text })
    await expect(balRow('(native)')).toHaveCount(1)
    await expect(balRow('USD Coin')).toContainText('872,500')
    await expect(balRow('hyfi.token')).toContainText('1,169,321.234567891234567891')
    await expect(balRow('Ethereum')).toContainText('9,852')
    await expect(balRow('World Of Women Galaxy')).toContainText('1')
    await expect(balRow('HyFi Membership')).toContainText('#42')
    await expect(balances.locator('[data-full="483200961027732618117991942553110860267520"]')).toHaveCount(1)
    await expect(balRow('OMNI404').first()).toContainText('0.00024')
    await expect(balances.locator('tbody tr').filter({ hasText: 'Unnamed token' })).toHaveCount(2)
    await expect(balances.locator(`[data-full="${ID78}"]`)).toHaveCount(1)
    // 2^256−1 with 0 decimals: cut in the cell, the exact grouped digits in the tooltip.
    await expect(balances.locator('[data-full^="115,792,089,237,316"]').first()).toBeVisible()
    await expectNoClipping(page, balances, main.locator('.table-box'))
    // The allocation legend stays in its panel.
    const panel = await main.locator('.allocation').boundingBox()
    for (const li of await main.locator('.allocation .legend li').all()) {
      const b = (await li.boundingBox())!
      expect(b.x + b.width).toBeLessThanOrEqual(panel!.x + panel!.width + 1)
    }
    await shootBothThemes(page, testInfo, 'real-world-balances')

    // Transactions: 20 fixture items + the extreme one; the broken one is a marked, counted row.
    await main.getByRole('tab', { name: 'Transactions' }).click()
    const list = main.getByRole('table', { name: 'Transactions' })
    await expect(main.getByRole('status', { name: 'Loaded transactions' })).toHaveText(
      '21 loaded, 1 unreadable in 1 page · all loaded',
      { timeout: 30_000 },
    )
    const scroller = list.locator('.scroller')
    // The list is virtual: scroll the row into the rendered window first (44 px rows).
    const reveal = async (index: number): Promise<void> => {
      await scroller.evaluate((el, top) => el.scrollTo(0, top), Math.max(0, index * 44 - 88))
      await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))')
    }
    for (const { id, item } of replay.txs) {
      const hash = String(item.hash)
      const row = list.locator(`[data-hash="${hash}"]`)
      await reveal(replay.txs.findIndex((e) => e.id === id))
      await expect(row, id).toBeVisible()
      const status = id === 'pending' ? 'Pending' : item.status === 'error' ? 'Failed: Reverted' : 'Success'
      await expect(row.locator('.badge').last(), id).toHaveText(status)
      if (id === 'pending') await expect(row.locator('[role="cell"]').first()).toHaveText('pending')
      if (id === 'TX') {
        await expect(row).toContainText('42.00042')
        await expect(row).toContainText('0.0021')
      } else if (id !== 'pending') {
        await expect(row, id).toContainText('42')
        await expect(row, id).toContainText('0.00714316')
      }
    }
    await expect(list.getByTestId('unreadable-row')).toHaveCount(1)
    await expectNoClipping(page, list, scroller)

    const openDetail = async (id: string): Promise<Locator> => {
      const index = replay.txs.findIndex((e) => e.id === id)
      const hash = String(replay.txs[index]!.item.hash)
      await reveal(index)
      const button = list.getByRole('button', {
        name: `Transaction ${hash.slice(0, 8)}…${hash.slice(-6)}, open details`,
      })
      await button.click()
      const dialog = page.getByRole('dialog')
      await expect(dialog).toBeVisible()
      return dialog
    }
    const close = async (): Promise<void> => {
      await page.getByRole('button', { name: 'Close details' }).click()
      await expect(page.getByRole('dialog')).toHaveCount(0)
    }

    let d = await openDetail('pending')
    await expect(d).toContainText('pending (not in a block yet)')
    await expect(d).not.toContainText('Failed')
    await close()
    d = await openDetail('withRawRevertReason')
    await expect(d.getByTestId('revert-reason')).toContainText('Only chairperson can give right to vote.')
    await close()
    d = await openDetail('withDecodedRevertReason')
    await expect(d.getByTestId('revert-reason')).toContainText('SomeCustomError(address addr, uint256 balance)')
    await expect(d.getByTestId('revert-reason')).toContainText('0xf26594f585de4eb0ae9de865d9053fee02ac6ef1')
    await close()
    d = await openDetail('TX')
    await expect(d.getByTestId('fee')).toHaveText('0.0021')
    await expect(d).toContainText('Transaction type0')
    await close()
    d = await openDetail('withTokenTransfer')
    const transfers = d.getByRole('table', { name: 'Token transfers' })
    await expect(transfers.locator('tbody tr')).toHaveCount(8)
    await expect(transfers.locator('tbody tr').nth(0)).toContainText('0.03156737370313035')
    await expect(transfers.locator('tbody tr').nth(0)).toContainText('ARIA')
    await expect(transfers.locator('tbody tr').nth(1)).toContainText('#875879856')
    await expect(transfers.locator('tbody tr').nth(6)).toContainText('42,000,000')
    await expectNoClipping(page, transfers, d.locator('.hscroll'))
    await transfers.scrollIntoViewIfNeeded()
    await shootBothThemes(page, testInfo, 'real-world-detail-transfers', { fullPage: false })
    await close()

    // The extreme transaction, in the list and the detail.
    const extreme = list.locator(`[data-hash="0x${'e'.repeat(64)}"]`)
    await reveal(replay.txs.length)
    await expect(
      extreme.locator(
        '[data-full="115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457.584007913129639935"]',
      ),
    ).toHaveCount(2)
    await shootBothThemes(page, testInfo, 'real-world-list')
    await reveal(replay.txs.length + 1)
    await list.getByTestId('unreadable-row').getByRole('button', { name: 'show raw' }).click()
    await expect(page.getByTestId('unreadable-path')).toHaveText('value')
    await expect(page.getByTestId('unreadable-raw')).toContainText('"amount": 1')
    await page.getByRole('button', { name: 'Close raw item' }).click()
  } finally {
    await service.stop()
    rmSync(replay.dir, { recursive: true, force: true })
  }
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { domShape } from '../../testing/dom-shape'
import { makeTx, ME } from '../../testing/samples'
import { RowPool } from '../../ui/virtual-list/row-pool'
import { RowBlock, type PooledRow } from '../../ui/virtual-list/row-block'
import { listFonts, rowView } from './tx-row-view'
import { txRowWriter, type RowContent } from './tx-row-dom'
import { UnreadableRow } from './unreadable-row'

type ListRow = PooledRow<RowContent>

/**
 * The list's rows written without a template (ui/virtual-list/row-block.ts with the list's
 * txRowWriter): whatever the rows shown before,
 * the block must show exactly what a fresh block shows for the rows shown now, and a render that
 * changes nothing must touch nothing.
 */
const fonts = listFonts()
const txs = Array.from({ length: 12 }, (_, i) => makeTx(i))
const views = new Map(txs.map((tx) => [tx, rowView(tx, ME, fonts)]))
const unreadable = new UnreadableRow(
  { index: 3, path: 'status', message: 'expected a string', raw: {}, hash: '0x' + 'ab'.repeat(32) },
  0,
)
/** Item i of a list of 12: a transaction, but item 3 could not be read. */
const itemAt = (i: number) => (i === 3 ? unreadable : txs[i]!)
const keyAt = (i: number) => (i === 3 ? unreadable.key : txs[i]!.hash)

/** The rows RowPool plans for the items at `indexes` (reading order), as TxList builds them. */
function plan(pool: RowPool, indexes: number[], inOrder: boolean, age = '1 min ago'): ListRow[] {
  const p = pool.assign(
    indexes.map((i) => keyAt(i)),
    inOrder,
  )
  const built = indexes.map((index, i): ListRow => {
    const item = itemAt(index)
    const place = { index, slot: p.slots[i]!, style: `order: ${index};` }
    if (item instanceof UnreadableRow) return { ...place, content: { tx: null, u: item, v: null } }
    return {
      ...place,
      content: {
        tx: item,
        u: null,
        v: views.get(item)!,
        age,
        cutAge: false,
        cutParties: false,
        note: null,
        fromHref: null,
        toHref: null,
        cutStatus: false,
      },
    }
  })
  return p.order.map((i) => built[i]!)
}

function block(): HTMLElement {
  const el = document.createElement('div')
  document.body.append(el)
  return el
}

/** The list's rows in `el`, under its header row (the first row is aria-rowindex 2). */
const rowBlock = (el: HTMLElement) => new RowBlock(el, txRowWriter, 2)

/** The DOM changes `fn` makes under `el`. */
async function mutations(el: HTMLElement, fn: () => void): Promise<MutationRecord[]> {
  const seen: MutationRecord[] = []
  const mo = new MutationObserver((records) => seen.push(...records))
  mo.observe(el, { childList: true, subtree: true, attributes: true, characterData: true })
  fn()
  await Promise.resolve()
  seen.push(...mo.takeRecords())
  mo.disconnect()
  return seen
}

const ranges = fc.array(
  fc.record({ from: fc.integer({ min: 0, max: 8 }), n: fc.integer({ min: 0, max: 4 }), rest: fc.boolean() }),
  { minLength: 1, maxLength: 8 },
)

describe('RowBlock with the transaction rows', () => {
  it('after any sequence of renders, shows exactly what a fresh block shows for the last rows', () => {
    fc.assert(
      fc.property(ranges, (steps) => {
        const pool = new RowPool()
        const el = block()
        const body = rowBlock(el)
        let last: ListRow[] = []
        for (const { from, n, rest } of steps) {
          last = plan(
            pool,
            Array.from({ length: n }, (_, i) => from + i),
            rest,
          )
          body.render(last, from * 44)
        }
        const freshEl = block()
        rowBlock(freshEl).render(
          // A fresh pool: elements are made in document order, so compare what they show.
          last,
          steps.at(-1)!.from * 44,
        )
        expect([...el.children].map(domShape)).toEqual([...freshEl.children].map(domShape))
        expect(el.style.transform).toBe(`translateY(${steps.at(-1)!.from * 44}px)`)
        el.remove()
        freshEl.remove()
      }),
      { numRuns: 200 },
    )
  })

  it('touches nothing when nothing shown changed, and only the rows that did when some did', async () => {
    const pool = new RowPool()
    const el = block()
    const body = rowBlock(el)
    body.render(plan(pool, [0, 1, 2, 3, 4], true), 0)
    expect(await mutations(el, () => body.render(plan(pool, [0, 1, 2, 3, 4], true), 0))).toEqual([])
    // The clock moved: each transaction's age is written, its Text node changed in place; the
    // unreadable row (no age) is not touched.
    const ages = await mutations(el, () => body.render(plan(pool, [0, 1, 2, 3, 4], true, '2 min ago'), 0))
    expect(ages.every((m) => m.type === 'characterData')).toBe(true)
    expect(ages.map((m) => m.target.textContent)).toEqual(Array(4).fill('2 min ago'))
    el.remove()
  })

  it('while scrolling, keeps the elements of rows still shown where they stand and adds or removes only the others', async () => {
    const pool = new RowPool()
    const el = block()
    const body = rowBlock(el)
    body.render(plan(pool, [0, 1, 2, 3, 4, 5], true), 0)
    const kept = new Map([2, 4, 5].map((i) => [i, el.querySelector(`[aria-rowindex="${i + 2}"]`)]))
    const changes = await mutations(el, () => body.render(plan(pool, [2, 3, 4, 5, 6, 7], false), 88))
    const moved = changes.filter((m) => m.type === 'childList' && m.target === el)
    expect(moved).toEqual([])
    for (const [i, row] of kept) expect(el.querySelector(`[aria-rowindex="${i + 2}"]`)).toBe(row)
    // Rows 0 and 1 went; 6 and 7 took their elements.
    expect([...el.children].map((r) => r.getAttribute('aria-rowindex'))).toEqual(['8', '9', '4', '5', '6', '7'])
    // At rest the elements move back into reading order, each keeping its row.
    body.render(plan(pool, [2, 3, 4, 5, 6, 7], true), 88)
    expect([...el.children].map((r) => r.getAttribute('aria-rowindex'))).toEqual(['4', '5', '6', '7', '8', '9'])
    for (const [i, row] of kept) expect(el.querySelector(`[aria-rowindex="${i + 2}"]`)).toBe(row)
    // Fewer rows: the others' elements leave the block.
    body.render(plan(pool, [6, 7], true), 264)
    expect([...el.children].map((r) => r.getAttribute('aria-rowindex'))).toEqual(['8', '9'])
    el.remove()
  })

  it('names the row shown by an element in it, and none for elements outside its rows', () => {
    const pool = new RowPool()
    const el = block()
    const body = rowBlock(el)
    body.render(plan(pool, [2, 3], true), 0)
    const [tx, bad] = [...el.children] as HTMLElement[]
    expect(body.rowOf(tx!.querySelector('button.hash'))?.row.content.tx).toBe(txs[2])
    expect(body.rowOf(tx!.querySelector('button.hash'))?.element).toBe(tx)
    expect(body.rowOf(bad!.querySelector('button'))?.row.content.u).toBe(unreadable)
    expect(bad!.getAttribute('data-testid')).toBe('unreadable-row')
    expect(tx!.getAttribute('data-hash')).toBe(txs[2]!.hash)
    expect(tx!.className).toBe('tx-row')
    expect(bad!.className).toBe('tx-row unreadable')
    expect(body.rowOf(el)).toBeNull()
    expect(body.rowOf(document.body)).toBeNull()
    // A row taken out (another address) names nothing.
    body.clear()
    expect(body.rowOf(tx!)).toBeNull()
    expect(el.children.length).toBe(0)
    el.remove()
  })
})

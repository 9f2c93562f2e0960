import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { transactionsResponseSchema } from '@shared/domain/service-schemas'
import { readFixture } from '@shared/testing/blockscout-fixtures'
import { domShape } from '../../testing/dom-shape'
import { makeTx, ME, party } from '../../testing/samples'
import { listFonts, rowView } from './tx-row-view'
import { TX_COLUMNS, widthCss } from './tx-columns'
import { writeRow, type RowContent } from './tx-row-dom'
import { UnreadableRow } from './unreadable-row'

/**
 * A pooled row takes one transaction after another and writes only what differs (tx-row-dom.ts).
 * Whatever it showed before, it must then be exactly the row a fresh element shows.
 */
const fonts = listFonts()
const fixture = readFixture('transactions')
const parsed = transactionsResponseSchema.parse({ items: fixture.items.map((i) => i.item), next_page_params: null })
const vault = party('0x3333333333333333333333333333333333333333', {
  name: 'Vault',
  is_contract: true,
  is_verified: true,
})
const txs = [
  ...parsed.items,
  makeTx(0, { to: vault, method: 'deposit' }),
  makeTx(1, { to: party('0x3333333333333333333333333333333333333333', { is_contract: true }) }),
  makeTx(2, { to: party('0x3333333333333333333333333333333333333333', { is_verified: true }) }),
  makeTx(3, { to: null, created_contract: { hash: '0x4444444444444444444444444444444444444444' } }),
  makeTx(4, { to: null }),
  makeTx(5, { status: 'error', result: 'Reverted', value: (2n ** 256n - 1n).toString() }),
  makeTx(6, { method: 'swapExactTokensForTokensSupportingFeeOnTransferTokens' }),
]
const unreadable = [
  new UnreadableRow(
    { index: 0, path: 'status', message: 'expected a string', raw: {}, hash: '0x' + 'ab'.repeat(32) },
    0,
  ),
  new UnreadableRow({ index: 1, path: '', message: 'expected an object', raw: 7, hash: null }, 0),
]

const contents = fc.oneof(
  fc
    .record({
      tx: fc.constantFrom(...txs),
      age: fc.constantFrom('12 s ago', '3 min ago', '2 years 11 months ago'),
      cutAge: fc.boolean(),
      cutParties: fc.boolean(),
      note: fc.constantFrom(null, 'paid the rent', ''),
      fromHref: fc.constantFrom(null, '#/address/alpha/0xA'),
      toHref: fc.constantFrom(null, '#/address/beta/0xB'),
      cutStatus: fc.boolean(),
    })
    .map((c): RowContent => ({ ...c, u: null, v: rowView(c.tx, ME, fonts) })),
  fc.constantFrom(...unreadable).map((u): RowContent => ({ tx: null, u, v: null })),
)

function rowElement(): HTMLElement {
  return document.createElement('div')
}

function fresh(r: RowContent): HTMLElement {
  const row = rowElement()
  writeRow(row, r)
  return row
}

describe('writeRow', () => {
  it('a row that showed anything before shows exactly what a fresh row shows', () => {
    fc.assert(
      fc.property(fc.array(contents, { minLength: 1, maxLength: 8 }), (seq) => {
        const row = rowElement()
        for (const r of seq) writeRow(row, r)
        expect(domShape(row)).toBe(domShape(fresh(seq.at(-1)!)))
      }),
      { numRuns: 300 },
    )
  })

  it('a row taking another transaction keeps its cells and their Text nodes (text changed in place)', () => {
    const row = rowElement()
    const a: RowContent = {
      tx: txs[0]!,
      u: null,
      v: rowView(txs[0]!, ME, fonts),
      age: '1 min ago',
      cutAge: false,
      cutParties: false,
      note: null,
      fromHref: null,
      toHref: null,
      cutStatus: false,
    }
    writeRow(row, a)
    const cells = [...row.children]
    const hashText = row.querySelector('button.hash')!.firstChild
    const b: RowContent = { ...a, tx: txs[3]!, v: rowView(txs[3]!, ME, fonts), age: '2 min ago' }
    writeRow(row, b)
    expect([...row.children]).toEqual(cells)
    expect(row.querySelector('button.hash')!.firstChild).toBe(hashText)
    expect(hashText!.textContent).toBe(b.v!.hashShort)
  })

  it('shows a transaction as 7 cells, named for assistive tech, each as wide as its column declares', () => {
    const tx = txs.at(-7)!
    const row = fresh({
      tx,
      u: null,
      v: rowView(tx, ME, fonts),
      age: '12 s ago',
      cutAge: false,
      cutParties: false,
      note: 'rent',
      fromHref: '#/address/alpha/0x1',
      toHref: null,
      cutStatus: false,
    })
    const cells = [...row.children]
    expect(cells.map((c) => c.getAttribute('role'))).toEqual(Array(7).fill('cell'))
    expect(cells.map((c) => c.textContent)).toEqual([
      '12 s ago',
      expect.stringMatching(/^0x[0-9a-f]{6}…[0-9a-f]{6}$/),
      'deposit',
      'Out0x1111…1111→Vaultcontractverified',
      '1.5',
      '0.000021',
      'Successnote',
    ])
    const hash = row.querySelector('button.hash')!
    expect(hash.getAttribute('type')).toBe('button')
    expect(hash.getAttribute('title')).toBe(tx.hash)
    expect(hash.getAttribute('aria-label')).toBe(`Transaction ${hash.textContent}, open details`)
    expect(row.querySelector('[aria-hidden="true"]')!.textContent).toBe('→')
    expect(row.querySelector('[title^="Note: "]')!.getAttribute('title')).toBe('Note: rent')
    expect(cells.map((c) => c.getAttribute('style'))).toEqual(TX_COLUMNS.map(widthCss))
    // Styled by class (the list's stylesheet), not by a framework's scoped-style attribute.
    for (const el of [row, ...row.querySelectorAll('*')])
      expect(el.getAttributeNames().filter((n) => n.startsWith('data-v-'))).toEqual([])
  })

  it('shows an unreadable item as a marked row with its problem and a way to its raw JSON', () => {
    const row = fresh({ tx: null, u: unreadable[0]!, v: null })
    expect([...row.children].map((c) => c.getAttribute('role'))).toEqual(['cell', 'cell', 'cell'])
    expect(row.textContent).toBe('—0xababab…ababab' + 'Unreadable item status: expected a string show raw')
    expect(row.querySelector('button')!.textContent).toBe('show raw')
    expect(row.querySelector('[title]')!.getAttribute('title')).toBe('status: expected a string')
    expect(fresh({ tx: null, u: unreadable[1]!, v: null }).children[1]!.textContent).toBe('—')
  })
})

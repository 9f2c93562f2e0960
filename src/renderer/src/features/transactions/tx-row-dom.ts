import { shortHash } from '@shared/domain/short-hash'
import type { RowWriter } from '../../ui/virtual-list/row-block'
import { Part } from '../../ui/virtual-list/dom-part'
import type { UnreadableRow } from './unreadable-row'
import { ColumnCells, spanFromCss, TX_COLUMNS, widthCss, type TxRow } from './tx-columns'

/**
 * The cells of a transaction list row, written straight into the DOM (`writeRow`).
 *
 * The list's rows are pooled (ui/virtual-list): while it scrolls, about 9 elements a frame change
 * rows. Through a template, Vue built and compared some 25 vnodes for each of them and called a
 * directive per text; that was the largest part of a scrolled frame's script (1.2–1.9 ms of about
 * 4.7 ms on the main thread, bench/ui-profile.ts). Here each row keeps its cells and what it last
 * wrote to them (Part), and a row taking another transaction changes only what differs.
 *
 * What a cell shows is declared in tx-columns.ts and worked out in tx-row-view.ts; this file only
 * puts a row on the page. Events are the list's, on the rows' block: a click on a button in a row
 * names that button as what opened the detail.
 */

/** What a row shows: a transaction with its worked-out cells, or an item that could not be read. */
export type RowContent = (TxRow & { u: null }) | { tx: null; u: UnreadableRow; v: null }

class UnreadableCells {
  readonly #hash: Part
  readonly #problem: Part

  /** Its cells stand under the first two columns (age, hash); its problem takes the others. */
  constructor(row: HTMLElement) {
    const [first, second] = TX_COLUMNS.map(widthCss) as [string, string]
    const cell = (cls: string, style: string) => new Part('span', cls, { role: 'cell', style })
    this.#hash = cell('mono', second)
    this.#problem = new Part('span', 'muted')
    const button = new Part('button', 'link', { type: 'button' }).text('show raw')
    const rest = cell('span-rest', spanFromCss(2)).add(new Part('span', 'badge warn').text('Unreadable item'))
    rest.add(this.#problem)
    rest.el.append(' ', button.el)
    row.replaceChildren(cell('age', first).text('—').el, this.#hash.el, rest.el)
  }

  write(u: UnreadableRow): void {
    this.#hash.text(u.item.hash ? shortHash(u.item.hash, 8, 6) : '—')
    this.#problem.text(` ${u.problem}`).attr('title', u.problem)
  }
}

const cellsOf = new WeakMap<HTMLElement, ColumnCells | UnreadableCells>()

/** Writes `r` into the row element `row`, building its cells the first time or when its kind changes. */
export function writeRow(row: HTMLElement, r: RowContent): void {
  let cells = cellsOf.get(row)
  if (r.u) {
    if (!(cells instanceof UnreadableCells)) cellsOf.set(row, (cells = new UnreadableCells(row)))
    cells.write(r.u)
  } else {
    if (!(cells instanceof ColumnCells)) cellsOf.set(row, (cells = new ColumnCells(row)))
    cells.write(r)
  }
}

/** Whether a row shows exactly what it showed: its item, and what changes without it. */
function same(a: RowContent, b: RowContent): boolean {
  if (a.u || b.u) return a.u === b.u
  return (
    a.v === b.v &&
    a.age === b.age &&
    a.cutAge === b.cutAge &&
    a.cutParties === b.cutParties &&
    a.note === b.note &&
    a.fromHref === b.fromHref &&
    a.toHref === b.toHref &&
    a.cutStatus === b.cutStatus
  )
}

/** The transaction list's rows for the virtual list (ui/virtual-list): styled by their class. */
export const txRowWriter: RowWriter<RowContent> = {
  rowClass: (r) => (r.u ? 'tx-row unreadable' : 'tx-row'),
  same,
  write(row, r, was) {
    if (!was || !was.u !== !r.u) {
      if (r.u) row.setAttribute('data-testid', 'unreadable-row')
      else row.removeAttribute('data-testid')
    }
    const hash = r.tx?.hash ?? null
    if (!was || (was.tx?.hash ?? null) !== hash) {
      if (hash === null) row.removeAttribute('data-hash')
      else row.setAttribute('data-hash', hash)
    }
    writeRow(row, r)
  },
}

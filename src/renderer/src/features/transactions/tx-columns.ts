import type { Transaction } from '@shared/domain/service-schemas'
import { Part, withCut } from '../../ui/virtual-list/dom-part'
import { mayOverflowPx } from '../../ui/text-fit'
import type { ListFonts, RowView } from './tx-row-view'
import { COLUMN_REM, SPACING_REM, type ColumnId } from './tx-list-geometry'

/**
 * The transaction list's columns, each declared once: its header, its width (from
 * tx-list-geometry.ts), what its cell shows, its tooltip and what copying it gives. The header
 * (TxList.vue), the rows (tx-row-dom.ts), the estimates of what fits (`partiesColumnPx`) and the
 * unreadable row's span all read this list; adding a column is adding an entry here and its width
 * there.
 */

/** A transaction's row as its cells read it: the worked-out view and what changes without it. */
export interface TxRow {
  tx: Transaction
  v: RowView
  /** Its age (the clock). */
  age: string
  cutAge: boolean
  cutParties: boolean
  note: string | null
  /** The parties' links (the app's address route), null for no party (features/pivot: every address a link). */
  fromHref: string | null
  toHref: string | null
  /** The status cell clips: a status that wraps, or one with a note beside it that may not fit. */
  cutStatus: boolean
}

/**
 * A cell with more in it than its text (a button, badges): the parts it makes once per row
 * element, where the column's text and tooltip go, and what else it writes.
 */
export interface CellParts {
  /** Where the column's text goes (the cell itself when not given). */
  text?: Part
  /** Where the column's tooltip goes (the cell itself when not given). */
  title?: Part
  write?(r: TxRow): void
}

export interface TxColumn {
  id: ColumnId
  header: string
  /** Width (rem, tx-list-geometry.ts); the column that grows takes the rest of the row, at least this width. */
  rem: number
  grows?: boolean
  /** Right-aligned figures (header and cells). */
  numeric?: boolean
  /** The cell's class; `cut` is added where its text may not fit (it clips, for the ellipsis). */
  cls: string
  cut?(r: TxRow): boolean
  /** What the cell shows (a cell whose parts write their own text has none). */
  text?(r: TxRow): string
  /**
   * The tooltip, only where the cell does not show its whole value: Chromium restyles an element
   * whose `title` changes, and a scrolled frame reuses 9 rows.
   */
  title?(r: TxRow): string | undefined
  /** What copying the cell gives: the exact value where it shows a rounded or cut one. */
  copy?(r: TxRow): string
  parts?(cell: Part): CellParts
}

const span = (cls = '', attrs: Record<string, string> = {}): Part => new Part('span', cls, attrs)

/** An amount (value, fee): right-aligned, its exact value on copy and, where rounded or cut, as its tooltip. */
function amountColumn(
  id: 'value' | 'fee',
  header: string,
  cls: string,
  keys: { cut: 'cutValue' | 'cutFee'; title: 'valueTitle' | 'feeTitle' },
): TxColumn {
  return {
    id,
    header,
    rem: COLUMN_REM[id],
    numeric: true,
    cls,
    cut: (r) => r.v[keys.cut],
    text: (r) => r.v[id].text,
    title: (r) => r.v[keys.title],
    copy: (r) => r.v[id].exact,
  }
}

export const TX_COLUMNS: readonly TxColumn[] = [
  {
    id: 'age',
    header: 'Age',
    rem: COLUMN_REM.age,
    cls: 'age',
    cut: (r) => r.cutAge,
    text: (r) => r.age,
    title: (r) => r.v.ageTitle,
  },
  {
    id: 'hash',
    header: 'Hash',
    rem: COLUMN_REM.hash,
    cls: '',
    cut: (r) => r.v.cutHash,
    text: (r) => r.v.hashShort,
    // The hash always has its tooltip: the full hash.
    title: (r) => r.tx.hash,
    parts(cell) {
      const button = new Part('button', 'link mono hash', { type: 'button' })
      cell.add(button)
      return { text: button, title: button, write: (r) => void button.attr('aria-label', r.v.hashLabel) }
    },
  },
  {
    id: 'method',
    header: 'Method',
    rem: COLUMN_REM.method,
    cls: 'method',
    cut: (r) => r.v.cutMethod,
    text: (r) => r.v.method,
    title: (r) => r.v.methodTitle,
    parts(cell) {
      const badge = span('badge')
      cell.add(badge)
      return { text: badge }
    },
  },
  {
    id: 'parties',
    header: 'From → To',
    rem: COLUMN_REM.parties,
    grows: true,
    cls: 'parties',
    cut: (r) => r.cutParties,
    parts(cell) {
      const dir = span('badge dir')
      // Links written here, not AddressPivot components: a pooled row writes its cells straight
      // into the DOM (tx-row-dom.ts); the same href and full address as the pivot.
      const from = new Part('a', 'party')
      const to = new Part('a', 'party')
      const contract = span('badge', { title: 'Contract' }).text('contract').detached()
      const verified = span('badge ok', { title: 'Verified contract' }).text('verified').detached()
      cell.add(dir, from, span('', { 'aria-hidden': 'true' }).text('→'), to)
      return {
        write({ v, fromHref, toHref }) {
          dir.text(v.dirLabel).cls(`badge dir ${v.dir}`)
          from.text(v.fromText).attr('title', v.from.address).attr('href', fromHref)
          const address = v.to.address
          to.text(v.toText)
            .cls(address ? 'party' : 'party muted')
            .attr('title', address)
            .attr('href', toHref)
          to.show(contract, !!address && v.to.isContract, verified)
          to.show(verified, !!address && v.to.isVerified)
        },
      }
    },
  },
  amountColumn('value', 'Value', 'num mono', { cut: 'cutValue', title: 'valueTitle' }),
  amountColumn('fee', 'Fee', 'num mono muted', { cut: 'cutFee', title: 'feeTitle' }),
  {
    id: 'status',
    header: 'Status',
    rem: COLUMN_REM.status,
    cls: 'status',
    cut: (r) => r.cutStatus,
    text: (r) => r.v.status,
    title: (r) => (r.v.wrapStatus || r.cutStatus ? r.v.status : undefined),
    parts(cell) {
      const badge = span('badge')
      const note = span('badge').text('note').detached()
      cell.add(badge)
      return {
        text: badge,
        title: badge,
        write(r) {
          badge.cls(r.v.wrapStatus ? `badge ${r.v.stateClass} wrap` : `badge ${r.v.stateClass}`)
          cell.show(note, r.note !== null)
          if (r.note !== null) note.attr('title', `Note: ${r.note}`)
        },
      }
    },
  },
]

/** A column's width as CSS: fixed, or the rest of the row and at least its width. */
export const widthCss = (c: TxColumn): string => (c.grows ? `flex: 1 0 ${c.rem}rem` : `width: ${c.rem}rem`)

/** The fixed columns, the gaps between cells, the row's padding and room for a vertical scroll bar (rem). */
const FIXED_REM =
  TX_COLUMNS.reduce((sum, c) => sum + (c.grows ? 0 : c.rem), 0) +
  (TX_COLUMNS.length - 1) * SPACING_REM.cellGap +
  2 * SPACING_REM.rowPadding +
  1.5

/** The parties column's width (px) when the list is `listPx` wide: the column that takes the rest. */
export function partiesColumnPx(listPx: number, f: ListFonts): number {
  const grows = TX_COLUMNS.find((c) => c.grows)?.rem ?? 0
  return Math.max(grows * f.rem, listPx - FIXED_REM * f.rem)
}

/** The age cell may be too narrow for `age`. */
export function ageMayOverflow(age: string, f: ListFonts): boolean {
  return mayOverflowPx(age, f.text, COLUMN_REM.age * f.rem)
}

/**
 * The width of the columns from the `from`th on, with the gaps between them, as CSS: an
 * unreadable item's problem takes them, like the rows it sits between.
 */
export function spanFromCss(from: number): string {
  const rest = TX_COLUMNS.slice(from)
  const rem = rest.reduce((sum, c) => sum + c.rem, 0) + (rest.length - 1) * SPACING_REM.cellGap
  return `flex: 1 0 ${rem}rem`
}

/** The list's spacing as CSS variables (`--cellGap: 0.5rem; …`), so its style and the estimates of what fits agree. */
export function listGeometryCss(): string {
  return Object.entries(SPACING_REM)
    .map(([name, rem]) => `--${name}: ${rem}rem`)
    .join('; ')
}

/** Writes a row's cells from the columns: built once per row element, then only what differs. */
export class ColumnCells {
  readonly #cells: { col: TxColumn; cell: Part; parts: CellParts }[]

  constructor(row: HTMLElement) {
    this.#cells = TX_COLUMNS.map((col) => {
      const cell = new Part('span', col.cls, { role: 'cell', style: widthCss(col) })
      return { col, cell, parts: col.parts?.(cell) ?? {} }
    })
    row.replaceChildren(...this.#cells.map((c) => c.cell.el))
  }

  write(r: TxRow): void {
    for (const { col, cell, parts } of this.#cells) {
      cell.cls(withCut(col.cls, col.cut?.(r) ?? false))
      if (col.text) (parts.text ?? cell).text(col.text(r))
      if (col.title) (parts.title ?? cell).attr('title', col.title(r))
      if (col.copy) cell.attr('data-full', col.copy(r))
      parts.write?.(r)
    }
  }
}

/**
 * The transaction list's widths (rem), read both by its columns (tx-columns.ts) and by the
 * estimates of what fits in a cell (tx-row-view.ts); the columns read the row views' type, so
 * the widths stand here, below both.
 */

/** The gap between cells, the row's side padding, and the gap between the parts of the parties cell (rem). */
export const SPACING_REM = { cellGap: 0.5, rowPadding: 0.6, partiesGap: 0.35 } as const

export type ColumnId = 'age' | 'hash' | 'method' | 'parties' | 'value' | 'fee' | 'status'

/** Each column's width (rem); the parties column grows past its width to take the rest of the row. */
export const COLUMN_REM: Readonly<Record<ColumnId, number>> = {
  age: 6.5,
  hash: 10.5,
  method: 8.5,
  parties: 16,
  value: 9,
  fee: 8,
  // Fits "Failed: execution reverted" (the sandbox's reason, longer than the usual "Reverted")
  // on one line; a longer reason wraps to a second rather than being cut.
  status: 11.5,
}

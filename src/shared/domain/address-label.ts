/**
 * An address label the user keeps apart from watchlists: typed in, or imported from another
 * tool's CSV. One per address and network. Plain types (no zod) so the renderer can import them.
 */
export interface AddressLabel {
  /** Lowercase. */
  address: string
  network: string
  label: string
  note: string
  updatedAt: string
}

export const labelId = (l: Pick<AddressLabel, 'address' | 'network'>): string =>
  `${l.network}|${l.address.toLowerCase()}`

/** The documented CSV layout, in this order; export writes it and import reads it first. */
export const LABEL_CSV_COLUMNS = ['address', 'network', 'label', 'note'] as const

export const LABEL_LIMITS = {
  /** Rows in one import. */
  rows: 10_000,
  /** Labels kept in all. */
  labels: 50_000,
} as const

/** What an import would do, shown before anything is applied. */
export interface LabelImportPreview {
  added: Pick<AddressLabel, 'address' | 'network' | 'label' | 'note'>[]
  /** A label or note that differs from the one kept: applied only when the user picks it. */
  changed: {
    address: string
    network: string
    old: { label: string; note: string }
    next: { label: string; note: string }
  }[]
  /** Rows equal to what is kept already. */
  same: number
  /** Rows with neither a label nor a note. */
  empty: number
  /** Header cells that are not read (another tool's extra columns). */
  ignoredColumns: string[]
  /** How the file was read, in words ("header row; separator ';'"). */
  layout: string
  /** Rows that cannot be imported, in file order: applied only if the user chooses the good rows. */
  bad: LabelBadRow[]
}

/** A row of a label file that cannot be imported: its line, its column and why. */
export interface LabelBadRow {
  row: number
  column: string
  why: string
}

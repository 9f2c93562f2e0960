import { checkAddress, checksumAddress, normaliseAddress } from '@shared/domain/address'
import { LABEL_CSV_COLUMNS, LABEL_LIMITS, type AddressLabel } from '@shared/domain/address-label'
import { NETWORK_NAME_PATTERN } from '@shared/domain/profile-rules'
import { WATCH_LIMITS } from '@shared/domain/watch-limits'
import { formatCsv, parseCsv, uncell } from '@shared/csv'
import { AppError } from '../util/app-error'

/**
 * Address labels as CSV. Export writes the documented layout `address,network,label,note`.
 * Import also reads what other tools export:
 * - columns found by header name in any order and case: address (address, wallet, account),
 *   label (label, name, name tag, private name tag, tag), note (note, notes, description,
 *   comment), network (network, chain); other columns are listed and left unread;
 * - no header when the first cell is an address: columns by position, address then label
 *   then note (our four-column layout when there are four or more);
 * - quoted cells, a BOM, CRLF or LF line ends; the separator is `;` or a tab only when the
 *   first line holds that and no comma, since a comma inside a label must not split it.
 * A file without a label (or note) column leaves the label (or note) kept now as it is.
 * Every cell is checked before anything is kept: the first problem is named by row (line of
 * the file) and column, and nothing is applied.
 */
export type LabelRow = Pick<AddressLabel, 'address' | 'network'> & {
  row: number
  /** Null when the file has no such column: the label or note kept now stays as it is. */
  label: string | null
  note: string | null
}

type Field = 'address' | 'network' | 'label' | 'note'

/** Header names per field, normalised (lowercase, runs of space, _ and - as one space). */
const NAMES: Record<Field, string[]> = {
  address: ['address', 'addresses', 'wallet', 'wallet address', 'account', 'public address'],
  // Earlier names win when a file has several (a "label" beats a "tag" column).
  label: ['label', 'name', 'private name tag', 'name tag', 'nametag', 'private tag', 'tag', 'public name tag'],
  note: ['note', 'notes', 'private note', 'description', 'comment', 'comments'],
  network: ['network', 'chain'],
}

const norm = (cell: string): string =>
  cell
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')

function separatorOf(text: string): ',' | ';' | '\t' {
  const first = text.replace(/^\uFEFF/, '').split(/\r\n?|\n/, 1)[0] ?? ''
  if (first.includes(',')) return ','
  if (first.includes(';')) return ';'
  if (first.includes('\t')) return '\t'
  return ','
}

const columnName = (index: number, header: string | null): string =>
  `column ${index + 1}${header ? ` ("${header.trim().slice(0, 40)}")` : ''}`

function refuse(row: number, where: string, message: string): never {
  throw new AppError('invalid-input', `Nothing was imported: row ${row}, ${where}: ${message}.`, {
    field: 'text',
    rows: [{ row, message: `${where}: ${message}` }],
  })
}

export interface ParsedLabels {
  rows: LabelRow[]
  empty: number
  ignoredColumns: string[]
  layout: string
}

/** `network` is used for rows whose file names none (most tools know one chain per file). */
export function parseLabelsCsv(text: string, network: string): ParsedLabels {
  const separator = separatorOf(text)
  const { rows, error } = parseCsv(text, separator)
  if (error) refuse(error.line, 'the text', error.message)
  const first = rows[0]
  if (!first) throw new AppError('invalid-input', 'The file holds no rows.', { field: 'text' })
  const headerless = checkAddress(uncell(first.cells[0] ?? '')).ok
  const columns = new Map<Field, number>()
  let headers: string[] | null = null
  const ignoredColumns: string[] = []
  if (headerless) {
    const width = first.cells.length
    const order: Field[] = width >= 4 ? [...LABEL_CSV_COLUMNS] : ['address', 'label', 'note']
    order.slice(0, width).forEach((f, i) => columns.set(f, i))
  } else {
    headers = first.cells
    for (const field of Object.keys(NAMES) as Field[]) {
      const at = NAMES[field]
        .map((name) => headers!.findIndex((h) => norm(h) === name))
        .find((i) => i >= 0 && ![...columns.values()].includes(i))
      if (at !== undefined) columns.set(field, at)
    }
    headers.forEach((h, i) => {
      if (![...columns.values()].includes(i) && h.trim() !== '') ignoredColumns.push(h.trim().slice(0, 40))
    })
    if (!columns.has('address'))
      refuse(
        first.line,
        'the header',
        'no column is named address (or wallet, account), and the first cell is not an address',
      )
    if (!columns.has('label') && !columns.has('note'))
      refuse(first.line, 'the header', 'no column is named label, name, tag or note')
  }
  const body = headerless ? rows : rows.slice(1)
  if (body.length > LABEL_LIMITS.rows)
    throw new AppError(
      'invalid-input',
      `The file holds ${body.length} rows; at most ${LABEL_LIMITS.rows} can be imported at once.`,
      { field: 'text' },
    )
  const out: LabelRow[] = []
  const seen = new Map<string, number>()
  let empty = 0
  for (const { line, cells } of body) {
    const cell = (f: Field): { text: string; where: string } | null => {
      const i = columns.get(f)
      return i === undefined
        ? null
        : { text: uncell(cells[i] ?? '').trim(), where: columnName(i, headers?.[i] ?? null) }
    }
    const a = cell('address')!
    const checked = checkAddress(a.text)
    if (!checked.ok) refuse(line, a.where, checked.message.replace(/\.$/, ''))
    const n = cell('network')
    const net = n && n.text !== '' ? n.text.toLowerCase() : network
    if (n && !NETWORK_NAME_PATTERN.test(net))
      refuse(line, n.where, `"${net.slice(0, 40)}" is not a network name (lowercase letters, digits, dashes)`)
    const l = cell('label')
    const label = l ? l.text : null
    if (l && label !== null && label.length > WATCH_LIMITS.label)
      refuse(line, l.where, `the label has ${label.length} characters; at most ${WATCH_LIMITS.label}`)
    const o = cell('note')
    const note = o ? o.text : null
    if (o && note !== null && note.length > WATCH_LIMITS.note)
      refuse(line, o.where, `the note has ${note.length} characters; at most ${WATCH_LIMITS.note}`)
    if (!label && !note) {
      empty++
      continue
    }
    const address = normaliseAddress(checked.address)
    const key = `${net}|${address}`
    const before = seen.get(key)
    if (before !== undefined)
      refuse(line, a.where, `${checksumAddress(address)} on ${net} is also in row ${before}; keep one of them`)
    seen.set(key, line)
    out.push({ row: line, address, network: net, label, note })
  }
  const named = headerless ? 'no header row' : 'a header row'
  const sep = separator === '\t' ? 'tab' : `"${separator}"`
  return { rows: out, empty, ignoredColumns, layout: `${named}, cells separated by ${sep}` }
}

/** The documented layout; cells neutralised against spreadsheet formulas by `formatCsv`. */
export function formatLabelsCsv(labels: readonly AddressLabel[]): string {
  const sorted = [...labels].sort((x, y) =>
    x.network === y.network ? x.address.localeCompare(y.address) : x.network.localeCompare(y.network),
  )
  return formatCsv([
    [...LABEL_CSV_COLUMNS],
    ...sorted.map((l) => [checksumAddress(l.address), l.network, l.label, l.note]),
  ])
}

import { checkAddress, checksumAddress, normaliseAddress } from '@shared/domain/address'
import { LABEL_CSV_COLUMNS, LABEL_LIMITS, type AddressLabel, type LabelBadRow } from '@shared/domain/address-label'
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
 * Every cell is checked before anything is kept. A problem with the file as a whole (its CSV,
 * its header, its size) refuses it; a bad row is listed with its row (line of the file), column
 * and why, and left out of `rows` — the user then applies the good rows or fixes the file
 * (docs/decisions/label-import-bad-rows.md). Two rows for one address and network are both bad:
 * which one was meant cannot be told.
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
  /** Rows left out, in file order. */
  bad: LabelBadRow[]
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
  const bad: LabelBadRow[] = []
  const seen = new Map<string, number>()
  const twice = new Set<string>()
  let empty = 0
  const mark = (row: number, column: string, why: string): void => void bad.push({ row, column, why })
  for (const { line, cells } of body) {
    const cell = (f: Field): { text: string; where: string } | null => {
      const i = columns.get(f)
      return i === undefined
        ? null
        : { text: uncell(cells[i] ?? '').trim(), where: columnName(i, headers?.[i] ?? null) }
    }
    const a = cell('address')!
    const checked = checkAddress(a.text)
    const problems = bad.length
    if (!checked.ok) mark(line, a.where, checked.message.replace(/\.$/, ''))
    const n = cell('network')
    const net = n && n.text !== '' ? n.text.toLowerCase() : network
    if (n && !NETWORK_NAME_PATTERN.test(net))
      mark(line, n.where, `"${net.slice(0, 40)}" is not a network name (lowercase letters, digits, dashes)`)
    const l = cell('label')
    const label = l ? l.text : null
    if (l && label !== null && label.length > WATCH_LIMITS.label)
      mark(line, l.where, `the label has ${label.length} characters; at most ${WATCH_LIMITS.label}`)
    const o = cell('note')
    const note = o ? o.text : null
    if (o && note !== null && note.length > WATCH_LIMITS.note)
      mark(line, o.where, `the note has ${note.length} characters; at most ${WATCH_LIMITS.note}`)
    if (bad.length > problems || !checked.ok) continue
    if (!label && !note) {
      empty++
      continue
    }
    const address = normaliseAddress(checked.address)
    const key = `${net}|${address}`
    const before = seen.get(key)
    if (before !== undefined) {
      mark(line, a.where, `${checksumAddress(address)} on ${net} is also in row ${before}; keep one of them`)
      twice.add(key)
      continue
    }
    seen.set(key, line)
    out.push({ row: line, address, network: net, label, note })
  }
  // The first of two rows for one address is left out too, and listed where it is in the file.
  for (const r of out.filter((r) => twice.has(`${r.network}|${r.address}`)))
    bad.push({
      row: r.row,
      column: columnName(columns.get('address')!, headers?.[columns.get('address')!] ?? null),
      why: `${checksumAddress(r.address)} on ${r.network} is in a later row too; keep one of them`,
    })
  bad.sort((x, y) => x.row - y.row)
  const named = headerless ? 'no header row' : 'a header row'
  const sep = separator === '\t' ? 'tab' : `"${separator}"`
  const good = out.filter((r) => !twice.has(`${r.network}|${r.address}`))
  return { rows: good, bad, empty, ignoredColumns, layout: `${named}, cells separated by ${sep}` }
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

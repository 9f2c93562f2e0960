import type { ExportFile, WatchEntry, Watchlist } from '@shared/bridge/contract'
import { checkAddress, checksumAddress, normaliseAddress } from '@shared/domain/address'
import { tagsWithinLimits, tidyTags, WATCH_LIMITS, WATCH_MESSAGES } from '@shared/domain/watch-limits'
import { networkName } from '@shared/domain/profile'
import { AppError } from '../util/app-error'
import { formatCsv, parseCsv, uncell } from '@shared/csv'
import { errorMessage, isRecord } from '@shared/guards'

export type ImportedEntry = Omit<WatchEntry, 'id'>
export interface ImportedList {
  name: string
  entries: ImportedEntry[]
}

interface RowError {
  row: number
  message: string
}

const CSV_COLUMNS = ['list', 'address', 'network', 'label', 'note', 'tags', 'added_at'] as const
const MAX_ROWS = WATCH_LIMITS.entries

/**
 * Reads an import and validates every row before anything is kept: one bad row refuses the
 * whole import (no partial import) and the error lists every bad row (up to 100).
 *
 * JSON: Chainscope's export `{ format: "chainscope-watchlists", lists: [{ name, entries }] }`,
 * a single `{ name, entries }`, or a bare array of entries. Row n = the n-th entry in the file.
 * CSV: a header row naming at least `address` and `network` (any order, any case; also
 * `list`, `label`, `note`, `tags` separated by ";", `added_at`). Row n = line n of the file.
 */
export function parseImport(format: 'json' | 'csv', text: string, defaultName: string, nowIso: string): ImportedList[] {
  const raw = format === 'json' ? rowsFromJson(text, defaultName) : rowsFromCsv(text, defaultName)
  const errors: RowError[] = []
  const lists = new Map<string, ImportedList>()
  const seen = new Map<string, number>()
  if (raw.length === 0) throw new AppError('invalid-input', 'The file holds no watchlist entries.', { field: 'text' })
  if (raw.length > MAX_ROWS)
    throw new AppError(
      'invalid-input',
      `The file holds ${raw.length} entries; at most ${MAX_ROWS} can be imported at once.`,
      { field: 'text' },
    )
  for (const r of raw) {
    const problems: string[] = []
    const address =
      typeof r.address === 'string'
        ? checkAddress(r.address)
        : ({ ok: false, message: 'the address is missing' } as const)
    if (!address.ok) problems.push(address.message)
    const network = typeof r.network === 'string' ? r.network.trim() : ''
    if (!networkName.safeParse(network).success)
      problems.push(
        network
          ? `"${network.slice(0, 40)}" is not a network name (lowercase letters, digits, dashes)`
          : 'the network is missing',
      )
    const label = str(r.label)
    if (label === null || label.length > WATCH_LIMITS.label) problems.push(WATCH_MESSAGES.label)
    const note = str(r.note)
    if (note === null || note.length > WATCH_LIMITS.note) problems.push(WATCH_MESSAGES.note)
    const tags = tagList(r.tags)
    if (tags === null) problems.push(WATCH_MESSAGES.tags)
    let addedAt = nowIso
    if (r.addedAt !== undefined && r.addedAt !== null && r.addedAt !== '') {
      if (typeof r.addedAt !== 'string' || Number.isNaN(Date.parse(r.addedAt))) problems.push('added_at is not a date')
      else addedAt = new Date(r.addedAt).toISOString()
    }
    const alsoNetworks =
      r.alsoNetworks === undefined || r.alsoNetworks === null
        ? undefined
        : Array.isArray(r.alsoNetworks) &&
            r.alsoNetworks.length <= WATCH_LIMITS.alsoNetworks &&
            r.alsoNetworks.every((n) => networkName.safeParse(n).success)
          ? r.alsoNetworks.map(String)
          : null
    if (alsoNetworks === null) problems.push(WATCH_MESSAGES.alsoNetworks)
    const listName = r.list.trim().slice(0, WATCH_LIMITS.listName) || defaultName
    if (problems.length === 0 && address.ok) {
      const key = `${listName}\u0000${network}\u0000${normaliseAddress(address.address)}`
      const first = seen.get(key)
      if (first !== undefined) problems.push(`the same address and network as row ${first} in list "${listName}"`)
      else seen.set(key, r.row)
    }
    if (problems.length > 0 || !address.ok) {
      errors.push({ row: r.row, message: problems.join('; ') })
      continue
    }
    const list = lists.get(listName) ?? { name: listName, entries: [] }
    lists.set(listName, list)
    list.entries.push({
      address: normaliseAddress(address.address),
      network,
      label: label!.trim(),
      note: note!,
      tags: tags!,
      addedAt,
      ...(alsoNetworks ? { alsoNetworks } : {}),
    })
  }
  if (errors.length > 0) {
    throw new AppError(
      'invalid-input',
      `Nothing was imported: ${errors.length} row${errors.length === 1 ? ' has a problem' : 's have problems'} (first: row ${errors[0]!.row}: ${errors[0]!.message}).`,
      {
        field: 'text',
        rows: errors.slice(0, 100),
      },
    )
  }
  return [...lists.values()]
}

interface RawRow {
  row: number
  list: string
  address: unknown
  network: unknown
  label: unknown
  note: unknown
  tags: unknown
  addedAt: unknown
  /** JSON only: other networks the address is watched on. */
  alsoNetworks?: unknown
}

function str(v: unknown): string | null {
  if (v === undefined || v === null) return ''
  return typeof v === 'string' ? v : null
}

function tagList(v: unknown): string[] | null {
  if (v === undefined || v === null || v === '') return []
  const parts = typeof v === 'string' ? v.split(/[;|]/) : Array.isArray(v) ? v : null
  if (!parts || !parts.every((t): t is string => typeof t === 'string')) return null
  const tags = tidyTags(parts)
  return tagsWithinLimits(tags) ? tags : null
}

function rowsFromJson(text: string, defaultName: string): RawRow[] {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch (error) {
    throw new AppError('invalid-input', `The file is not valid JSON: ${errorMessage(error).slice(0, 120)}`, {
      field: 'text',
    })
  }
  const shapeError = new AppError(
    'invalid-input',
    'The JSON is not a watchlist export: expected { lists: [{ name, entries }] }, { name, entries } or a list of entries.',
    { field: 'text' },
  )
  const nameOf = (name: unknown): string => (typeof name === 'string' && name.trim() ? name : defaultName)
  const listOf = (l: unknown): { name: string; entries: unknown[] } => {
    if (!isRecord(l) || !Array.isArray(l.entries)) throw shapeError
    return { name: nameOf(l.name), entries: l.entries }
  }
  let lists: { name: string; entries: unknown[] }[]
  if (Array.isArray(doc)) lists = [{ name: defaultName, entries: doc }]
  else if (isRecord(doc) && Array.isArray(doc.lists)) lists = doc.lists.map(listOf)
  else lists = [listOf(doc)]
  const rows: RawRow[] = []
  let row = 0
  for (const list of lists) {
    for (const e of list.entries) {
      row += 1
      const o = isRecord(e) ? e : {}
      rows.push({
        row,
        list: list.name,
        address: o.address,
        network: o.network,
        label: o.label,
        note: o.note,
        tags: o.tags,
        addedAt: o.addedAt ?? o.added_at,
        alsoNetworks: o.alsoNetworks,
      })
    }
  }
  return rows
}

function rowsFromCsv(text: string, defaultName: string): RawRow[] {
  const { rows, error } = parseCsv(text)
  if (error)
    throw new AppError('invalid-input', `The CSV cannot be read at line ${error.line}: ${error.message}.`, {
      field: 'text',
      rows: [{ row: error.line, message: error.message }],
    })
  const [header, ...body] = rows
  if (!header) return []
  const names = header.cells.map((c) => c.trim().toLowerCase().replace(/\s+/g, '_'))
  const col = (name: string): number => names.indexOf(name)
  if (col('address') < 0 || col('network') < 0) {
    throw new AppError(
      'invalid-input',
      `The CSV's first row must name its columns, at least "address" and "network" (found: ${names.slice(0, 8).join(', ') || 'nothing'}). Known columns: ${CSV_COLUMNS.join(', ')}.`,
      { field: 'text' },
    )
  }
  const at = (cells: string[], name: string): string | undefined => {
    const i = col(name)
    return i >= 0 && i < cells.length ? uncell(cells[i]!) : undefined
  }
  return body.map((r) => ({
    row: r.line,
    list: at(r.cells, 'list') ?? defaultName,
    address: at(r.cells, 'address') ?? '',
    network: at(r.cells, 'network') ?? '',
    label: at(r.cells, 'label'),
    note: at(r.cells, 'note'),
    tags: at(r.cells, 'tags'),
    addedAt: at(r.cells, 'added_at'),
  }))
}

export function exportLists(lists: Watchlist[], format: 'json' | 'csv', now: Date, single: boolean): ExportFile {
  const day = now.toISOString().slice(0, 10)
  const base =
    single && lists[0]
      ? lists[0].name
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-+|-+$/g, '') || 'watchlist'
      : 'chainscope-watchlists'
  if (format === 'json') {
    const doc = {
      format: 'chainscope-watchlists',
      version: 2,
      exportedAt: now.toISOString(),
      lists: lists.map((l) => ({
        name: l.name,
        entries: l.entries.map(({ id: _id, ...e }) => ({ ...e, address: checksumAddress(e.address) })),
      })),
    }
    return { filename: `${base}-${day}.json`, mime: 'application/json', text: JSON.stringify(doc, null, 2) + '\n' }
  }
  const rows: string[][] = [[...CSV_COLUMNS]]
  for (const l of lists)
    for (const e of l.entries)
      rows.push([l.name, checksumAddress(e.address), e.network, e.label, e.note, e.tags.join(';'), e.addedAt])
  return { filename: `${base}-${day}.csv`, mime: 'text/csv', text: formatCsv(rows) }
}

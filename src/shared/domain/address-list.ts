import { parseAddress, type Address } from './address'

/**
 * A pasted or dropped list of addresses (issue 39 item 5), read for a preview before anything is
 * added: one address per line, or CSV, with any mix of commas, semicolons, tabs, pipes and
 * spaces. Each address is checked like a typed one (form, then the EIP-55 checksum of mixed
 * case). A line with one address may carry a label in another field (`0x…,Cold wallet`).
 * A first line without an address that names a column ("address", "label") is a header.
 * Pure: the watchlist and case dialogs show the rows, then add the new ones
 * (docs/decisions/bulk-address-paste.md).
 */
export type ListRowStatus = 'new' | 'duplicate' | 'already' | 'invalid'

export interface ListRow {
  /** 1-based line of the text. */
  line: number
  /** The field as written (an invalid one too), or the whole line when it holds no address. */
  text: string
  status: ListRowStatus
  /** Lowercase; null when invalid. */
  address: Address | null
  /** A label from another field of the line; '' when none. */
  label: string
  /** Why a row is not new, in words the user can act on; '' for a new one. */
  why: string
}

export interface ListParse {
  rows: ListRow[]
  /** The new addresses, in order: what applying adds. */
  fresh: ListRow[]
  counts: Record<ListRowStatus, number>
}

export interface ListParseOptions {
  /** Lowercase addresses already in the target (the watchlist on that network, the case). */
  existing?: ReadonlySet<string>
  /** Where the target is, for the "already" message. Default "the list". */
  targetName?: string
  /** Longest label kept from a line (longer is cut). Default 100. */
  labelMax?: number
}

/** Fields a line splits into: any run of separators. Quotes around a field are dropped. */
const SEPARATORS = /[,;\t|\s]+/
const HEADER_WORDS = /^(address|addresses|label|name|note|network|tag|tags|wallet)$/i
const MAX_LINES = 10_000

const unquote = (s: string): string => s.replace(/^["']+|["']+$/g, '').trim()
/** A field meant as an address: 0x followed by letters or digits (a typo in one is invalid, not a label). */
const looksLikeAddress = (f: string): boolean => /^0x[0-9a-z]*$/i.test(f)

export function parseAddressList(text: string, options: ListParseOptions = {}): ListParse {
  const existing = options.existing ?? new Set<string>()
  const target = options.targetName ?? 'the list'
  const rows: ListRow[] = []
  const firstLine = new Map<string, number>()
  const lines = text.split(/\r\n|\n|\r/)
  let sawContent = false
  for (let i = 0; i < lines.length && i < MAX_LINES; i++) {
    const raw = lines[i]!.trim()
    if (!raw) continue
    const fields = raw.split(SEPARATORS).map(unquote).filter(Boolean)
    const wanted = fields.filter(looksLikeAddress)
    const others = fields.filter((f) => !looksLikeAddress(f))
    const line = i + 1
    if (wanted.length === 0) {
      const header = !sawContent && others.length > 0 && others.every((f) => HEADER_WORDS.test(f))
      sawContent = true
      if (!header) rows.push(invalid(line, raw, 'No address on this line (an address starts with 0x).'))
      continue
    }
    sawContent = true
    const label = wanted.length === 1 ? labelOf(raw, wanted[0]!, options.labelMax ?? 100) : ''
    for (const field of wanted) {
      const parsed = parseAddress(field)
      if (!parsed.ok) {
        rows.push(invalid(line, field, parsed.message))
        continue
      }
      const a = parsed.address
      const seen = firstLine.get(a)
      if (seen !== undefined)
        rows.push(row(line, field, { address: a, status: 'duplicate', why: `Also on line ${seen}.` }))
      else if (existing.has(a))
        rows.push(row(line, field, { address: a, status: 'already', why: `Already in ${target}.` }))
      else rows.push({ ...row(line, field, { address: a, status: 'new', why: '' }), label })
      if (seen === undefined) firstLine.set(a, line)
    }
  }
  if (lines.length > MAX_LINES)
    rows.push(invalid(MAX_LINES + 1, '…', `Only the first ${MAX_LINES} lines are read; split the list.`))
  const counts: Record<ListRowStatus, number> = { new: 0, duplicate: 0, already: 0, invalid: 0 }
  for (const r of rows) counts[r.status]++
  return { rows, fresh: rows.filter((r) => r.status === 'new'), counts }
}

/** The text of the line after its address, as one label: "0x…, Cold wallet, desk 2" → "Cold wallet, desk 2". */
function labelOf(raw: string, address: string, max: number): string {
  const at = raw.indexOf(address)
  const rest = (at >= 0 ? raw.slice(0, at) + ' ' + raw.slice(at + address.length) : '').trim()
  return unquote(rest.replace(/^[,;\t|\s"']+|[,;\t|\s"']+$/g, '')).slice(0, max)
}

const row = (line: number, text: string, what: Pick<ListRow, 'address' | 'status' | 'why'>): ListRow => ({
  line,
  text,
  label: '',
  ...what,
})
const invalid = (line: number, text: string, why: string): ListRow =>
  row(line, text, { address: null, status: 'invalid', why })

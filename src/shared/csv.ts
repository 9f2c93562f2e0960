import Papa from 'papaparse'

/**
 * CSV (RFC 4180) for every export and import, on Papa Parse: quoted fields, doubled quotes,
 * CRLF or LF line ends, an optional BOM. Spreadsheets run a cell that starts with = + - @ tab
 * or CR as a formula, and skip white space and line breaks before deciding, so export prefixes
 * with ' a cell that starts with a tab or line break, or with = + - @ after any white space
 * (OWASP "CSV injection"); import removes that prefix again. The guard also covers a value that
 * already starts with quote marks before such a start, so `uncell(cell)` gives back exactly
 * what was exported.
 */
const FORMULA = /^'*(?:[\t\r\n]|\s*[=+\-@])/

/** One cell's text: objects as JSON, null and undefined as empty. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** Rows as CSV text with CRLF line ends and a final line end. */
export function formatCsv(rows: readonly (readonly unknown[])[]): string {
  if (rows.length === 0) return ''
  const text = Papa.unparse(
    rows.map((r) => r.map(cellText)),
    {
      newline: '\r\n',
      escapeFormulae: FORMULA,
      // Edge white space would be lost by readers that trim; tabs and line ends too.
      quotes: (value: unknown) => typeof value === 'string' && /^\s|\s$/.test(value),
    },
  )
  return `${text}\r\n`
}

/** One row without its line end (for exports written in chunks). */
export function csvLine(cells: readonly unknown[]): string {
  return formatCsv([cells]).slice(0, -2)
}

/** One cell as CSV. */
export function csvCell(value: unknown): string {
  return csvLine([value])
}

/** Undoes the export's formula guard. */
export function uncell(value: string): string {
  return value.startsWith("'") && FORMULA.test(value.slice(1)) ? value.slice(1) : value
}

export interface CsvRow {
  /** 1-based line number where the row starts, as a spreadsheet shows it. */
  line: number
  cells: string[]
}

export interface CsvResult {
  rows: CsvRow[]
  /** The first problem, with its line; rows before it are still given. */
  error: { line: number; message: string } | null
}

const MESSAGES: Record<string, string> = {
  MissingQuotes: 'a quoted cell is never closed',
  InvalidQuotes: 'text after a closing quote; quote the whole cell and double any " inside it',
}

/**
 * Parses the whole text (blank lines skipped); cells are given as written, untrimmed. Line
 * ends may be mixed (files pass through several editors): all become LF first, inside quoted
 * cells too.
 */
export function parseCsv(text: string, delimiter: ',' | ';' | '\t' = ','): CsvResult {
  const src = (text.startsWith('\uFEFF') ? text.slice(1) : text).replace(/\r\n?/g, '\n')
  const lineStarts = [0]
  for (let i = 0; i < src.length; i++) if (src[i] === '\n') lineStarts.push(i + 1)
  const lineAt = (offset: number): number => {
    let lo = 0
    let hi = lineStarts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (lineStarts[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return lo + 1
  }
  const rows: CsvRow[] = []
  let error: CsvResult['error'] = null
  let start = 0
  Papa.parse<string[]>(src, {
    delimiter,
    newline: '\n',
    skipEmptyLines: true,
    step: (result) => {
      while (src[start] === '\n') start += 1
      const problem = result.errors[0]
      if (problem && !error) {
        error = { line: lineAt(problem.index ?? start), message: MESSAGES[problem.code] ?? problem.message }
      }
      if (!error) rows.push({ line: lineAt(start), cells: result.data })
      start = result.meta.cursor
    },
  })
  return { rows, error }
}

/**
 * CSV (RFC 4180): quoted fields, doubled quotes, CRLF or LF line ends, an optional BOM.
 * Spreadsheets run a cell that starts with = + - @ as a formula, so export prefixes such a
 * cell with ' and import removes that prefix again (OWASP "CSV injection").
 */
// Also guards a value that already starts with quote marks before such a character, so the
// import's un-guarding is exact for every value.
const FORMULA = /^'*[=+\-@\t\r]/

export function csvCell(value: string): string {
  const safe = FORMULA.test(value) ? `'${value}` : value
  return /[",\r\n]|^\s|\s$/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

export function formatCsv(rows: string[][]): string {
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n'
}

export function uncell(value: string): string {
  return value.startsWith("'") && FORMULA.test(value.slice(1)) ? value.slice(1) : value
}

export interface CsvRow {
  /** 1-based line number where the row starts, as a spreadsheet shows it. */
  line: number
  cells: string[]
}

/** Parses the whole text; a broken quote is reported with its line. */
export function parseCsv(text: string): { rows: CsvRow[]; error: { line: number; message: string } | null } {
  const src = text.startsWith('\uFEFF') ? text.slice(1) : text
  const rows: CsvRow[] = []
  let cells: string[] = []
  let cell = ''
  let line = 1
  let rowLine = 1
  let i = 0
  let quoted = false
  let wasQuoted = false
  const endCell = (): void => {
    cells.push(wasQuoted ? cell : cell.trim())
    cell = ''
    wasQuoted = false
  }
  const endRow = (): void => {
    endCell()
    if (!(cells.length === 1 && cells[0] === '')) rows.push({ line: rowLine, cells })
    cells = []
  }
  while (i < src.length) {
    const ch = src[i]!
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          cell += '"'
          i += 2
          continue
        }
        quoted = false
        i += 1
        // Only a separator or a line end may follow a closing quote.
        while (src[i] === ' ') i += 1
        if (i < src.length && src[i] !== ',' && src[i] !== '\n' && src[i] !== '\r') {
          return { rows, error: { line, message: 'text after a closing quote; quote the whole cell and double any " inside it' } }
        }
        continue
      }
      if (ch === '\n') line += 1
      cell += ch
      i += 1
      continue
    }
    if (ch === '"' && cell.trim() === '') {
      quoted = true
      wasQuoted = true
      cell = ''
      i += 1
      continue
    }
    if (ch === ',') {
      endCell()
      i += 1
      continue
    }
    if (ch === '\r' || ch === '\n') {
      endRow()
      i += ch === '\r' && src[i + 1] === '\n' ? 2 : 1
      line += 1
      rowLine = line
      continue
    }
    cell += ch
    i += 1
  }
  if (quoted) return { rows, error: { line: rowLine, message: 'a quoted cell is never closed' } }
  if (cell !== '' || cells.length > 0) endRow()
  return { rows, error: null }
}

/**
 * CSV per RFC 4180. A cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR)
 * is prefixed with an apostrophe: exported data comes from the network and must not execute.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function csvLine(cells: readonly unknown[]): string {
  return cells.map(csvCell).join(',')
}

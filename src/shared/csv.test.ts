import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { csvCell, formatCsv, parseCsv, uncell } from './csv'

describe('csv', () => {
  it('parses quotes, doubled quotes, embedded newlines, CRLF and a BOM', () => {
    const text = '\uFEFFa,b,c\r\n"x, y","say ""hi""","line1\nline2"\r\n\r\nplain, spaced ,3\n'
    const { rows, error } = parseCsv(text)
    expect(error).toBeNull()
    expect(rows).toEqual([
      { line: 1, cells: ['a', 'b', 'c'] },
      { line: 2, cells: ['x, y', 'say "hi"', 'line1\nline2'] },
      // Cells come as written; the reader trims where a field's meaning says so.
      { line: 5, cells: ['plain', ' spaced ', '3'] },
    ])
  })

  it('reports a quote that never closes, with its line', () => {
    expect(parseCsv('a,b\n"open,1\n2,3\n').error).toEqual({ line: 2, message: 'a quoted cell is never closed' })
    expect(parseCsv('a\n"x"y\n').error?.line).toBe(2)
  })

  it('neutralises spreadsheet formulas on export and restores them on import', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
    expect(csvCell('+1')).toBe(`"'+1"`)
    expect(csvCell(' padded ')).toBe('" padded "')
    expect(uncell("'+1")).toBe('+1')
    expect(uncell("'plain")).toBe("'plain")
    expect(uncell(parseCsv(csvCell("'=x")).rows[0]!.cells[0]!)).toBe("'=x")
  })

  it('neutralises a formula behind leading white space or line breaks', () => {
    const cases = [' =1+1', '  +1', '\t=1', '\t@SUM(A1)', '\r=1', '\n=1', '\r\n-1', ' \t\r\n=cmd', '\u00a0=1', "' =1"]
    for (const value of cases) {
      expect(csvCell(value), JSON.stringify(value)).toMatch(/^"'/)
      // Import reads every line end as LF, inside quoted cells too.
      expect(uncell(parseCsv(`h\r\n${csvCell(value)}\r\n`).rows[1]!.cells[0]!)).toBe(value.replace(/\r\n?/g, '\n'))
    }
    // A line break or tab alone at the start is neutralised too (spreadsheets read tab and CR as formula starts).
    expect(csvCell('\nplain')).toBe(`"'\nplain"`)
    // White space before ordinary text is only quoted, not prefixed.
    expect(csvCell(' 12')).toBe('" 12"')
    expect(csvCell('a =1')).toBe('a =1')
  })

  it('round-trips any table of strings', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 8 }),
        (table) => {
          const nonEmpty = table.filter((r) => !(r.length === 1 && r[0] === ''))
          const { rows, error } = parseCsv(formatCsv(nonEmpty))
          expect(error).toBeNull()
          expect(rows.map((r) => r.cells.map(uncell))).toEqual(nonEmpty)
        },
      ),
    )
  })
})

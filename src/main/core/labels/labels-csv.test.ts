import { describe, expect, it } from 'vitest'
import { AppError } from '../util/app-error'
import { formatLabelsCsv, parseLabelsCsv } from './labels-csv'

const A = '0x52908400098527886e0f7030069857d2e4169ee7'
const B = '0x8617e340b3d01fa5f11f306f4090fd50e238070d'
const A_SUM = '0x52908400098527886E0F7030069857D2E4169EE7'

/** Rows as labels; a column the file lacks reads as '' here (the store keeps the old value then). */
const simple = (text: string, network = 'alpha') =>
  parseLabelsCsv(text, network).rows.map(({ address, network: n, label, note }) => ({
    address,
    network: n,
    label: label ?? '',
    note: note ?? '',
  }))

function refusal(text: string): string {
  try {
    parseLabelsCsv(text, 'alpha')
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    return (error as AppError).message
  }
  throw new Error('the file was accepted')
}

describe('label CSV import layouts', () => {
  it('reads our own layout with its network column', () => {
    const text = `address,network,label,note\r\n${A_SUM},beta,Hot wallet,"seen, twice"\r\n${B},alpha,Cold,\r\n`
    expect(simple(text)).toEqual([
      { address: A, network: 'beta', label: 'Hot wallet', note: 'seen, twice' },
      { address: B, network: 'alpha', label: 'Cold', note: '' },
    ])
  })

  it('reads an explorer private tags export ("Address,Private Name Tag,Note") in the chosen network', () => {
    const text = `"Address","Private Name Tag","Note","Date Added"\n${A},Binance 14,exchange,2024-01-02\n`
    const parsed = parseLabelsCsv(text, 'beta')
    expect(parsed.rows.map((r) => [r.address, r.network, r.label, r.note])).toEqual([
      [A, 'beta', 'Binance 14', 'exchange'],
    ])
    expect(parsed.ignoredColumns).toEqual(['Date Added'])
  })

  it('reads a two-column "address,name" layout with columns in any order and case', () => {
    expect(simple(`NAME,Address\nAlice,${A}\nBob,${B}\n`)).toEqual([
      { address: A, network: 'alpha', label: 'Alice', note: '' },
      { address: B, network: 'alpha', label: 'Bob', note: '' },
    ])
  })

  it('reads a headerless two-column file by position, with no note column', () => {
    const parsed = parseLabelsCsv(`${A},Alice\n${B},Bob\n`, 'alpha')
    expect(parsed.rows.map((r) => [r.label, r.note])).toEqual([
      ['Alice', null],
      ['Bob', null],
    ])
    expect(parsed.layout).toContain('no header row')
  })

  it('reads quoted cells with a BOM, CRLF line ends and a quote inside', () => {
    const text = `\uFEFF"address","label","tag"\r\n"${A}","The ""big"" one","x"\r\n`
    expect(simple(text)).toEqual([{ address: A, network: 'alpha', label: 'The "big" one', note: '' }])
  })

  it('reads ";" separated files when the first line holds no comma, and keeps commas in labels of comma files', () => {
    expect(simple(`address;label;note\n${A};Alice, the first;n\n`)).toEqual([
      { address: A, network: 'alpha', label: 'Alice, the first', note: 'n' },
    ])
  })

  it('skips rows with neither label nor note and counts them', () => {
    const parsed = parseLabelsCsv(`address,label\n${A},\n${B},Bob\n`, 'alpha')
    expect(parsed.rows).toHaveLength(1)
    expect(parsed.empty).toBe(1)
  })

  it('reads back what it exports, formula cells neutralised on the way', () => {
    const labels = [
      { address: B, network: 'beta', label: '=HYPERLINK("x")', note: 'a\nb', updatedAt: '2030-01-01T00:00:00.000Z' },
      { address: A, network: 'alpha', label: 'Alice', note: '', updatedAt: '2030-01-01T00:00:00.000Z' },
    ]
    const text = formatLabelsCsv(labels)
    expect(text.split('\r\n')[0]).toBe('address,network,label,note')
    expect(text).toContain(`'=HYPERLINK`)
    expect(simple(text, 'gamma')).toEqual([
      { address: A, network: 'alpha', label: 'Alice', note: '' },
      { address: B, network: 'beta', label: '=HYPERLINK("x")', note: 'a\nb' },
    ])
  })
})

/** The rows a file leaves out, as "row N, column: why". */
const badRows = (text: string): string[] =>
  parseLabelsCsv(text, 'alpha').bad.map((b) => `row ${b.row}, ${b.column}: ${b.why}`)

describe('malformed label files: each bad row named, the good rows kept apart', () => {
  it('names the row and column of a bad address, and keeps the good rows', () => {
    const text = `address,label\n${A},ok\n0x1234,bad\n${B},fine\n`
    expect(badRows(text)).toEqual([
      'row 3, column 1 ("address"): An address has 40 hex characters after 0x; this one has 4',
    ])
    expect(simple(text)).toEqual([
      { address: A, network: 'alpha', label: 'ok', note: '' },
      { address: B, network: 'alpha', label: 'fine', note: '' },
    ])
  })

  it('names the row and column of a bad network', () => {
    expect(badRows(`label,address,network\nx,${A},Main Net\n`)).toEqual([
      'row 2, column 3 ("network"): "main net" is not a network name (lowercase letters, digits, dashes)',
    ])
  })

  it('names the row and column of a label that is too long', () => {
    expect(badRows(`address,name\n${A},${'x'.repeat(81)}\n`)).toEqual([
      'row 2, column 2 ("name"): the label has 81 characters; at most 80',
    ])
  })

  it('lists every bad row of a file in order (mixed problems, a wrong checksum among them)', () => {
    const wrongSum = A_SUM.replace('886E0F', '886e0F')
    const text = `address,network,label\n${wrongSum},alpha,x\n${B},alpha,ok\n${A},Bad Net,y\n0xzz,alpha,z\n`
    expect(parseLabelsCsv(text, 'alpha').bad.map((b) => [b.row, b.column])).toEqual([
      [2, 'column 1 ("address")'],
      [4, 'column 2 ("network")'],
      [5, 'column 1 ("address")'],
    ])
    expect(parseLabelsCsv(text, 'alpha').bad[0]!.why).toMatch(/checksum/)
    expect(simple(text).map((r) => r.address)).toEqual([B])
  })

  it('leaves out both rows of one address (which was meant cannot be told), each naming the other', () => {
    const text = `address,label\n${A},one\n${B},kept\n${A_SUM},two\n`
    expect(badRows(text)).toEqual([
      `row 2, column 1 ("address"): ${A_SUM} on alpha is in a later row too; keep one of them`,
      `row 4, column 1 ("address"): ${A_SUM} on alpha is also in row 2; keep one of them`,
    ])
    expect(simple(text).map((r) => r.label)).toEqual(['kept'])
  })

  it('refuses a file it cannot read as a whole: an unclosed quote, a header without an address column, no rows', () => {
    expect(refusal(`address,label\n${A},ok\n${B},"never closed\n`)).toMatch(/row 3/)
    expect(refusal(`wallet name,label\nx,y\n`)).toMatch(/row 1, the header: no column is named address/)
    expect(refusal('')).toMatch(/no rows/)
  })
})

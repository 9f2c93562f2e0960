import { describe, expect, it } from 'vitest'
import { checksumAddress } from './address'
import { parseAddressList } from './address-list'

const A = '0x52908400098527886e0f7030069857d2e4169ee7'
const B = '0x8617e340b3d01fa5f11f306f4090fd50e238070d'
const C = '0xde709f2102306220921060314715629080e2fb77'
const D = '0x27b1fdb04752bbc536007a920d24acb045561c26'
/** B checksummed with one letter's case flipped: the EIP-55 check must refuse it. */
const badSum = (() => {
  const good = checksumAddress(B)
  const i = good.slice(2).search(/[A-F]/) + 2
  return good.slice(0, i) + good[i]!.toLowerCase() + good.slice(i + 1)
})()

describe('parseAddressList: a pasted list, read for a preview', () => {
  it('reads one per line, CSV and mixed separators, keeps a label from the line, and skips a header', () => {
    const text = ['address,label', `${checksumAddress(A)},Cold wallet`, `"${B}"; "Desk 2"`, `${C}\t|  ${D}`, ''].join(
      '\r\n',
    )
    const p = parseAddressList(text)
    expect(p.rows.map((r) => [r.line, r.status, r.address, r.label])).toEqual([
      [2, 'new', A, 'Cold wallet'],
      [3, 'new', B, 'Desk 2'],
      [4, 'new', C, ''],
      [4, 'new', D, ''],
    ])
    expect(p.fresh.map((r) => r.address)).toEqual([A, B, C, D])
    expect(p.counts).toEqual({ new: 4, duplicate: 0, already: 0, invalid: 0 })
  })

  it('refuses a wrong checksum, a short address, a bad hex digit and a line without an address, saying why', () => {
    const text = [badSum, `${A.slice(0, 40)}`, `0x${'g'.repeat(40)}`, 'hello world', A].join('\n')
    const p = parseAddressList(text)
    expect(p.rows.map((r) => [r.line, r.status, r.why])).toEqual([
      [1, 'invalid', 'The mixed-case checksum (EIP-55) does not match: a character may be mistyped.'],
      [2, 'invalid', 'An address has 40 hex characters after 0x; this one has 38.'],
      [3, 'invalid', 'Character 3 ("g") is not a hex digit.'],
      [4, 'invalid', 'No address on this line (an address starts with 0x).'],
      [5, 'new', ''],
    ])
    expect(p.rows[0]!.text).toBe(badSum)
  })

  it('marks a repeat within the list (any case) and an address already in the target', () => {
    const p = parseAddressList([A, B.toUpperCase().replace('0X', '0x'), checksumAddress(A), C].join('\n'), {
      existing: new Set([C]),
      targetName: 'Desk',
    })
    expect(p.rows.map((r) => [r.line, r.status, r.why])).toEqual([
      [1, 'new', ''],
      [2, 'new', ''],
      [3, 'duplicate', 'Also on line 1.'],
      [4, 'already', 'Already in Desk.'],
    ])
    expect(p.fresh.map((r) => r.address)).toEqual([A, B])
    expect(p.counts).toEqual({ new: 2, duplicate: 1, already: 1, invalid: 0 })
  })

  it('reads nothing from an empty or blank text', () => {
    expect(parseAddressList(' \n\n\t').rows).toEqual([])
  })
})

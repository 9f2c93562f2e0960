import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { displayName, looksLikeAddress } from './display-name'

/** How the app shows an address: in full, or shortened as `0x2222…2222`. */
const ADDRESS_SHOWN = /^0x[0-9a-fA-F]{40}$|^0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}$/

describe('displayName', () => {
  it.each([
    ['an address-like name', '0x2222…2222', 'name “0x2222…2222”'],
    ['a full address as a name', `0x${'22'.repeat(20)}`, `name “0x${'22'.repeat(20)}”`],
    ['an ENS name that starts like an address', '0x2222…2222.eth', 'name “0x2222…2222.eth”'],
    ['an address after a word', 'Sender 0xdeadbeef', 'name “Sender 0xdeadbeef”'],
    // Marked though it is a word: 0x and two hex digits ("f", then "o" read as a zero) is enough.
    ['a word after 0x', '0xford', 'name “0xford”'],
    ['a zero-width space inside the 0x', '0\u200Bx2222…2222', 'name “0x2222…2222”'],
    ['a Cyrillic ha for the x', '0\u04452222…2222', 'name “0\u04452222…2222”'],
    ['a Cyrillic o for the zero', '\u043Ex2222…2222', 'name “\u043Ex2222…2222”'],
    ['full-width digits', '\uFF10\uFF58\uFF12\uFF12\uFF12\uFF12', 'name “\uFF10\uFF58\uFF12\uFF12\uFF12\uFF12”'],
    // Drawn right to left, this reads "0x2222…2222"; without the override it reads as stored.
    ['a right-to-left override', '\u202E2222…2222x0', '2222…2222x0'],
    ['isolates and marks', 'ali\u2066ce\u2069\u200E\u200F\uFEFF', 'alice'],
    ['a line break and tabs', 'Binance\n\t14', 'Binance 14'],
    ['a Hangul filler in the middle', 'uni\u3164swap', 'uniswap'],
  ])('%s', (_what, raw, shown) => {
    expect(displayName(raw)).toBe(shown)
  })

  it.each(['Uniswap V3: Router', 'vitalik.eth', 'Fox12 Capital', 'box 12', 'Zero X', 'Tether USD'])(
    'leaves an ordinary name as it is: %s',
    (name) => {
      expect(displayName(name)).toBe(name)
    },
  )

  it('is null for nothing, or nothing visible (the caller shows the address)', () => {
    expect(displayName(null)).toBeNull()
    expect(displayName(undefined)).toBeNull()
    expect(displayName('')).toBeNull()
    expect(displayName(' \u200B\u202E\u2066 \uFEFF\u3164 ')).toBeNull()
  })

  it('never shows a name as an address, however it is built (property)', () => {
    const piece = fc.constantFrom(
      '0',
      'x',
      'X',
      '2',
      'a',
      'F',
      '…',
      '...',
      '.eth',
      ' ',
      '\u202E',
      '\u202D',
      '\u2066',
      '\u2069',
      '\u200B',
      '\u200D',
      '\uFEFF',
      '\u00AD',
      '\u0445',
      '\u043E',
      '\uFF10',
      '\uFF58',
      '\n',
      'name “',
      '”',
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const shown = displayName(pieces.join(''))
        if (shown === null) return
        expect(shown).not.toMatch(ADDRESS_SHOWN)
        expect(shown).not.toMatch(/[\p{Cf}\p{Cc}]/u)
      }),
    )
  })

  it('any text: no invisible or control character is left, and an address-like result is marked (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (raw) => {
        const shown = displayName(raw)
        if (shown === null) return
        expect(shown).not.toMatch(/[\p{Cf}\p{Cc}\p{Zl}\p{Zp}]/u)
        expect(shown).toBe(shown.trim())
        if (looksLikeAddress(shown.replace(/^name “|”$/g, ''))) expect(shown.startsWith('name “')).toBe(true)
      }),
    )
  })
})

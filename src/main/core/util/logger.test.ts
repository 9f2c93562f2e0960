import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { displayName } from '@shared/domain/display-name'
import { Redactor } from './logger'

/** What a reader sees, written here and not imported: the test's own idea of "the key shows". */
const IGNORABLE = /[\p{Cf}\p{Cc}\p{M}\s\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2800\u3164\uFE00-\uFE0F\uFFA0]/gu
const seen = (text: string): string => text.normalize('NFKC').replace(IGNORABLE, '').toLowerCase()

const KEY = 'e2e_5f0c9a77b3d24e81aa06'
const redactor = (key = KEY): Redactor => {
  const r = new Redactor()
  r.add(key)
  return r
}
const fullWidth = (c: string): string => (c >= '!' && c <= '~' ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0) : c)
const everyChar = (key: string, form: (c: string) => string): string => Array.from(key, form).join('')
const hex2 = (c: string): string => c.charCodeAt(0).toString(16).padStart(2, '0')

describe('Redactor', () => {
  it('replaces a key however a URL carries it: raw, percent-encoded, form-encoded, lowercase escapes', () => {
    const key = "k3y!with'(parens)~and/slash"
    const r = redactor(key)
    const form = new URLSearchParams({ api_key: key }).toString().slice('api_key='.length)
    const forms = [key, encodeURIComponent(key), form, form.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())]
    for (const f of forms) {
      const line = `GET /api/v1/alpha/balance?address=0x1&api_key=${f} failed`
      expect(r.contains(line)).toBe(true)
      expect(r.redact(line)).toBe('GET /api/v1/alpha/balance?address=0x1&api_key=…lash failed')
    }
    expect(r.contains('no secret here')).toBe(false)
  })

  const cut = (mark: string): string => `${KEY.slice(0, 7)}${mark}${KEY.slice(7)}`
  const b64 = Buffer.from(KEY).toString('base64')
  it.each([
    ['a zero-width space inside', cut('\u200B')],
    ['a soft hyphen and a word joiner inside', cut('\u00AD\u2060')],
    ['a byte order mark, a variation selector, a grapheme joiner', cut('\uFEFF\uFE0F\u034F')],
    ['tag characters and a Hangul filler', cut('\u{E0041}\u{E0042}\u3164')],
    ['bidi controls around the halves', `\u202E${KEY.slice(0, 9)}\u2066\u2069${KEY.slice(9)}\u202C`],
    ['spaces and a line break inside', cut(' \n\t')],
    ['full-width letters', everyChar(KEY, fullWidth)],
    ['capitals', KEY.toUpperCase()],
    [
      'Cyrillic look-alikes for a, e, c',
      KEY.replaceAll('a', '\u0430').replaceAll('e', '\u0435').replaceAll('c', '\u0441'),
    ],
    ['accents on every letter', everyChar(KEY, (c) => (/[a-z]/.test(c) ? `${c}\u0301` : c))],
    ['every byte percent-encoded', everyChar(KEY, (c) => `%${hex2(c)}`)],
    ['a percent-encoded zero-width space inside', cut('%E2%80%8B')],
    ['JSON escapes of every character', everyChar(KEY, (c) => `\\u${hex2(c).padStart(4, '0')}`)],
    ['an escaped zero-width space inside', cut('\\u200b')],
    ['HTML references of every character', everyChar(KEY, (c) => `&#x${hex2(c)};`)],
    [
      'decimal references and a named soft hyphen',
      `${everyChar(KEY.slice(0, 6), (c) => `&#${c.charCodeAt(0)};`)}&shy;${KEY.slice(6)}`,
    ],
    ['a named zero-width space', cut('&ZeroWidthSpace;')],
    ['hex, in capitals', Buffer.from(KEY).toString('hex').toUpperCase()],
    ['base64', b64],
    ['base64url inside a longer base64url text', Buffer.from(`xy${KEY}!?`).toString('base64url')],
    ['base64 at each offset inside a longer text', Buffer.from(`ab${KEY}cd`).toString('base64')],
    ['base64 after one byte', Buffer.from(`a${KEY}`).toString('base64')],
  ])('finds the key with %s, and replaces its whole span', (_what, form) => {
    const r = redactor()
    const text = `name: <${form}> end`
    expect(r.contains(text)).toBe(true)
    const out = r.redact(text)
    expect(out.startsWith('name: <')).toBe(true)
    expect(out.endsWith('> end')).toBe(true)
    expect(out).toContain(`…${KEY.slice(-4)}`)
    expect(seen(out)).not.toContain(KEY)
    expect(seen(displayName(out)!)).not.toContain(KEY)
  })

  it('replaces the invisible characters inside the key with it: nothing of the span is left', () => {
    expect(redactor().redact(`a ${cut('\u200B')} b`)).toBe(`a …${KEY.slice(-4)} b`)
    expect(redactor().redact(`a ${cut('%E2%80%8B')} b`)).toBe(`a …${KEY.slice(-4)} b`)
  })

  it('finds a key holding a backslash, written as it is and JSON-escaped', () => {
    const key = 'sk_live_"echoed\\key/9876'
    const r = redactor(key)
    for (const form of [key, JSON.stringify(key).slice(1, -1), `sk_live_"echoed\\\u200Bkey/9876`]) {
      expect(r.contains(`x ${form} y`)).toBe(true)
      expect(r.redact(`x ${form} y`)).toBe('x …9876 y')
    }
  })

  it('never lets the display show a key with any invisible characters inserted (property)', () => {
    const invisible = fc.constantFrom(
      '\u200B',
      '\u200C',
      '\u200D',
      '\u00AD',
      '\u2060',
      '\uFEFF',
      '\u202E',
      '\u2066',
      '\u034F',
      '\uFE0F',
      '\u180E',
      '\u3164',
      '\u{E0020}',
      '\u{1D173}',
      ' ',
      '\n',
    )
    const keyChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.~')
    const around = fc.string({ unit: fc.constantFrom(...'abc xyz:;,()[]{}"\'<>=-_.!?'), maxLength: 20 })
    fc.assert(
      fc.property(
        fc.array(keyChar, { minLength: 12, maxLength: 40 }),
        fc.array(fc.array(invisible, { maxLength: 3 }), { minLength: 40, maxLength: 40 }),
        fc.boolean(),
        around,
        around,
        (chars, inserts, wide, before, after) => {
          const key = chars.join('')
          const hidden = chars
            .map((c, i) => `${wide ? fullWidth(c) : c}${i < chars.length - 1 ? inserts[i]!.join('') : ''}`)
            .join('')
          const r = redactor(key)
          const text = `${before}${hidden}${after}`
          expect(r.contains(text)).toBe(true)
          const out = r.redact(text)
          expect(out).toBe(`${before}…${key.slice(-4)}${after}`)
          expect(seen(displayName(out) ?? '')).not.toContain(seen(key))
        },
      ),
    )
  })

  it('leaves any text without the key as it is (property)', () => {
    const r = redactor()
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        expect(r.contains(text)).toBe(false)
        expect(r.redact(text)).toBe(text)
      }),
    )
  })

  it('keeps the key in no form when several registered keys overlap in one text', () => {
    const r = redactor()
    r.add('f0c9a77b3d24e81aa06_second')
    const out = r.redact(`x e2e_5f0c9a77b3d24e81aa06_second y`)
    expect(seen(out)).not.toContain(KEY)
    expect(seen(out)).not.toContain('f0c9a77b3d24e81aa06_second')
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { foldTextForSecrets } from '@shared/domain/visible-text'
import { decodeEscapes, findSpans, foldText, secretNeedles } from './secret-scan'

describe('foldText', () => {
  it('reads escapes as the character they stand for, each mapped back to its whole escape', () => {
    const text = 'A%41&#x42;&amp;\\u0043\\n%E2%80%8Bｄ'
    const folded = foldText(text, { map: true, decode: true })
    expect(folded.text).toBe('aab&cd')
    const spans = [...folded.text].map((_, i) => text.slice(folded.map!.starts[i], folded.map!.ends[i]))
    expect(spans).toEqual(['A', '%41', '&#x42;', '&amp;', '\\u0043', 'ｄ'])
  })

  it('reads a broken escape as it is written', () => {
    expect(foldText('%E2%41 &nosuch; \\', { map: false, decode: true }).text).toBe('%e2a&nosuch;\\')
    expect(foldText('%zz%C3', { map: false, decode: true }).text).toBe('%zz%c3')
  })

  it('reads a JSON surrogate pair as one character', () => {
    // Mathematical bold capital A, escaped as JSON writes it: folds to a.
    expect(foldText('\\ud835\\udc00', { map: false, decode: true }).text).toBe('a')
  })

  it('folds a text in whole passes exactly as character by character, escapes decoded or not (property)', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.constantFrom(
        '%',
        '&',
        '\\',
        '%41',
        '%e2%80%8b',
        '&#x200b;',
        '&shy;',
        '&amp;',
        '\\u00ad',
        '\\n',
        'Σ',
        'İ',
        'ﬁ',
        'ｅ',
      ),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.boolean(), (pieces, decode) => {
        const text = pieces.join('')
        const slow = foldText(text, { map: true, decode }).text
        expect(foldTextForSecrets(decode ? decodeEscapes(text) : text)).toBe(slow)
      }),
    )
  })
})

describe('secretNeedles', () => {
  it('looks for the key folded, in hex, and in base64 at each offset', () => {
    const needles = secretNeedles('Key_0123456789')
    expect(needles[0]).toBe('key_0123456789')
    expect(needles).toContain(Buffer.from('Key_0123456789').toString('hex'))
    for (const prefix of ['', 'a', 'ab']) {
      const encoded = Buffer.from(`${prefix}Key_0123456789tail`).toString('base64').toLowerCase()
      expect(needles.some((n) => n.length >= 12 && encoded.includes(n))).toBe(true)
    }
  })

  it('has none for a key too short to look for', () => {
    expect(secretNeedles('\u200Bab\u200B')).toEqual([])
  })
})

describe('findSpans', () => {
  it('merges overlapping finds into one span of the original text', () => {
    const text = 'x K\u200BEYKEY y'
    expect(findSpans(text, [['keykey'], ['eyk']])).toEqual([{ start: 2, end: 9, owner: 0 }])
  })
})

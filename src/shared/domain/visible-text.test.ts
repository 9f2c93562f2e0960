import { describe, expect, it } from 'vitest'
import { displayName } from './display-name'
import { foldForSecrets, withoutInvisible } from './visible-text'

describe('visible text', () => {
  it('the key search drops every character the display drops: no code point is missed', () => {
    const missed: string[] = []
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue
      const ch = String.fromCodePoint(cp)
      if (withoutInvisible(ch) === '' && foldForSecrets(cp) !== '') missed.push(cp.toString(16))
    }
    expect(missed).toEqual([])
  })

  it('the key search folds every character the display shows that reads as ASCII to that ASCII', () => {
    // What displayName leaves of one character is the character, unless it is invisible or a space.
    const unlike: string[] = []
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue
      const ch = String.fromCodePoint(cp)
      const ascii = ch.normalize('NFKC').toLowerCase()
      if (!/^[\x21-\x7e]+$/.test(ascii) || withoutInvisible(ch) === '') continue
      if (foldForSecrets(cp) !== ascii) unlike.push(`${cp.toString(16)}: ${ascii} / ${foldForSecrets(cp)}`)
    }
    expect(unlike).toEqual([])
    expect(displayName('a\uFF41a')).toBe('a\uFF41a')
  })

  it('drops format characters, default-ignorables and the Braille blank, and keeps what shows', () => {
    expect(withoutInvisible('a\u200Bb\u00ADc\u2060d\uFEFFe\uFE0Ff\u034Fg\u{E0041}h\u3164i\u2800j')).toBe('abcdefghij')
    expect(withoutInvisible('Uniswap V3: Router')).toBe('Uniswap V3: Router')
  })

  it('folds compatibility forms, case, accents and look-alikes to the Latin letter', () => {
    const fold = (s: string): string => Array.from(s, (c) => foldForSecrets(c.codePointAt(0)!)).join('')
    expect(fold('ＡＢｃ１')).toBe('abc1')
    expect(fold('é\u0301Ⓚ𝐊ﬁ')).toBe('ekkfi')
    expect(fold('\u0430\u0435\u043E\u0440\u0441\u0445')).toBe('aeopcx')
    expect(fold(' \n\t\u00A0\u3000')).toBe('')
  })
})

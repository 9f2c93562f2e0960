/**
 * What a reader sees of a text: one normalisation for the renderer's display of service-supplied
 * names (`displayName`) and for main's search for the API key (`Redactor`), so the two cannot
 * drift. Display drops `INVISIBLE`; the key search drops all of that and more (`foldForSecrets`),
 * so anything display could show as the key, the search has already found and redacted.
 * See docs/decisions/secret-matching.md.
 */

/**
 * Characters that draw nothing: format characters (bidi controls, zero-width space and joiners,
 * word joiner, soft hyphen, BOM, tag characters), every default-ignorable code point (variation
 * selectors, the combining grapheme joiner, Hangul fillers, Mongolian free variation selectors,
 * invisible math operators) and the Braille blank.
 */
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/gu

/** `text` without its `INVISIBLE` characters. */
export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE, '')
}

/**
 * Letters from other scripts drawn like a Latin letter (lowercase; NFKC and case folding take
 * care of full-width, mathematical, circled and capital forms).
 */
export const LATIN_LOOKALIKES: Readonly<Record<string, string>> = {
  // Cyrillic
  '\u0430': 'a',
  '\u044C': 'b',
  '\u0441': 'c',
  '\u0501': 'd',
  '\u0435': 'e',
  '\u04BB': 'h',
  '\u0456': 'i',
  '\u0458': 'j',
  '\u043A': 'k',
  '\u04CF': 'l',
  '\u043C': 'm',
  '\u043E': 'o',
  '\u0440': 'p',
  '\u051B': 'q',
  '\u0455': 's',
  '\u0442': 't',
  '\u0443': 'y',
  '\u051D': 'w',
  '\u0445': 'x',
  // Greek
  '\u03B1': 'a',
  '\u03B2': 'b',
  '\u03F2': 'c',
  '\u03B5': 'e',
  '\u03B7': 'n',
  '\u03B9': 'i',
  '\u03BA': 'k',
  '\u03BD': 'v',
  '\u03BF': 'o',
  '\u03C1': 'p',
  '\u03C4': 't',
  '\u03C5': 'u',
  '\u03C7': 'x',
  '\u03B6': 'z',
  // Armenian oh, the multiplication sign, the dotless i
  '\u0585': 'o',
  '\u00D7': 'x',
  '\u0131': 'i',
  // Not a look-alike: lowercasing a whole text writes a final sigma where one letter's gives σ.
  '\u03C2': '\u03C3',
}

/** What the key search drops besides `INVISIBLE`: marks, controls, separators and spaces. */
const UNSEEN_FOR_SECRETS = /[\p{Cf}\p{Default_Ignorable_Code_Point}\u2800\p{M}\p{Cc}\p{Z}\s]/gu

const folded = new Map<number, string>()

/**
 * One character (a code point) as the key search compares it: compatibility forms folded (NFKD:
 * full-width, ligatures, circled, mathematical), case folded, accents and every character that
 * draws nothing or only space dropped, look-alike letters replaced by their Latin letter. Per
 * character, so a match maps back to the characters it came from.
 */
export function foldForSecrets(codePoint: number): string {
  // Printable ASCII: the case only (the common case, no table).
  if (codePoint > 0x20 && codePoint < 0x7f)
    return codePoint >= 0x41 && codePoint <= 0x5a ? String.fromCharCode(codePoint + 32) : String.fromCharCode(codePoint)
  let out = folded.get(codePoint)
  if (out === undefined) {
    const decomposed = String.fromCodePoint(codePoint).normalize('NFKD').toLowerCase().replace(UNSEEN_FOR_SECRETS, '')
    out = Array.from(decomposed, (ch) => LATIN_LOOKALIKES[ch] ?? ch).join('')
    // Bounded: at most one entry per distinct code point a text holds.
    if (folded.size < 50_000) folded.set(codePoint, out)
  }
  return out
}

const NON_ASCII = /[^\x00-\x7f]/
const ASCII_UNSEEN = /[\s\x00-\x1f\x7f]+/g
const LOOKALIKE_CHARS = new RegExp(`[${Object.keys(LATIN_LOOKALIKES).join('')}]`, 'gu')

/**
 * `text` folded as `foldForSecrets` folds each of its characters, in four passes over the whole
 * text (each native, so a long text takes milliseconds, not a loop per character).
 */
export function foldTextForSecrets(text: string): string {
  // ASCII (most texts): nothing to decompose or look alike, and only spaces and controls unseen.
  if (!NON_ASCII.test(text)) return text.toLowerCase().replace(ASCII_UNSEEN, '')
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(UNSEEN_FOR_SECRETS, '')
    .replace(LOOKALIKE_CHARS, (ch) => LATIN_LOOKALIKES[ch] ?? ch)
}

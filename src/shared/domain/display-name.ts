/**
 * A name the service supplies (a party's `name`, its ENS name, a tag, a token's symbol or name)
 * as it may be shown: it can never be read as an address.
 *
 * - Invisible characters go: format characters (bidi embeddings and overrides U+202A-202E,
 *   isolates U+2066-2069, marks U+200E/200F/061C, zero-width U+200B-200D, U+2060, U+FEFF, soft
 *   hyphen, tag characters) and letters that draw nothing (Hangul fillers, the Braille blank,
 *   the combining grapheme joiner). Controls and line breaks become a space, runs of any
 *   space one space, and the ends are trimmed. Stripped, not escaped: the name stays readable,
 *   and what remains is all that a reader would have seen anyway, in the order it is stored.
 * - A name that looks like an address (`0x` and hex digits anywhere, look-alike letters from
 *   other scripts and full-width forms folded first) is marked as a name: `name “0x2222…2222”`.
 *   Written out, not styled, so a screen reader, a copy and a tooltip say it too. A real
 *   address is never shown with quotes, so two senders no longer read the same.
 *
 * Null when nothing visible is left: the caller shows the address instead.
 */
export function displayName(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string') return null
  const text = raw.replace(INVISIBLE, '').replace(BREAKS, ' ').replace(SPACES, ' ').trim()
  if (text === '') return null
  return looksLikeAddress(text) ? `name “${text}”` : text
}

/** Format characters, and letters and marks that draw nothing. */
const INVISIBLE = /[\p{Cf}\u034F\u115F\u1160\u17B4\u17B5\u2800\u3164\uFFA0]/gu
/** Controls, line and paragraph separators: shown as a space, never as a break. */
const BREAKS = /[\p{Cc}\p{Zl}\p{Zp}]/gu
/** One pass over any run of spaces (no backtracking: a single class, repeated). */
const SPACES = /[\s\p{Zs}]+/gu

/** Look-alikes of the characters of a hex address, from other scripts (NFKC folds the rest). */
const LOOKALIKE: Record<string, string> = {
  o: '0',
  '\u043E': '0', // Cyrillic o
  '\u03BF': '0', // Greek omicron
  '\u0585': '0', // Armenian oh
  '\u0445': 'x', // Cyrillic ha
  '\u03C7': 'x', // Greek chi
  '\u00D7': 'x', // multiplication sign
  '\u0430': 'a', // Cyrillic a
  '\u03B1': 'a', // Greek alpha
  '\u044C': 'b', // Cyrillic soft sign
  '\u0441': 'c', // Cyrillic es
  '\u03F2': 'c', // Greek lunate sigma
  '\u0501': 'd', // Cyrillic komi de
  '\u0435': 'e', // Cyrillic ie
  '\u03B5': 'e', // Greek epsilon
}

/** `0x` and two hex digits, at the start or after something that is not a letter or digit. */
const ADDRESS_LIKE = /(?:^|[^\p{L}\p{N}])0x[0-9a-f]{2}/u

export function looksLikeAddress(text: string): boolean {
  const folded = Array.from(text.normalize('NFKC').toLowerCase(), (ch) => LOOKALIKE[ch] ?? ch).join('')
  return ADDRESS_LIKE.test(folded)
}

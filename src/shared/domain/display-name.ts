import { LATIN_LOOKALIKES, withoutInvisible } from './visible-text'

/**
 * A name the service supplies (a party's `name`, its ENS name, a tag, a token's symbol or name)
 * as it may be shown: it can never be read as an address.
 *
 * - Invisible characters go (`INVISIBLE` in visible-text.ts, the set main's key search also
 *   drops): format characters (bidi controls, zero-width characters, soft hyphen, tag
 *   characters), every default-ignorable code point (variation selectors, Hangul fillers, the
 *   combining grapheme joiner) and the Braille blank. Controls and line breaks become a space, runs of any
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
  const text = withoutInvisible(raw).replace(BREAKS, ' ').replace(SPACES, ' ').trim()
  if (text === '') return null
  return looksLikeAddress(text) ? `name “${text}”` : text
}

/** Controls, line and paragraph separators: shown as a space, never as a break. */
const BREAKS = /[\p{Cc}\p{Zl}\p{Zp}]/gu
/** One pass over any run of spaces (no backtracking: a single class, repeated). */
const SPACES = /[\s\p{Zs}]+/gu

/** Read as a digit in an address: the letter o (and its look-alikes, `LATIN_LOOKALIKES` first). */
const ADDRESS_DIGITS: Record<string, string> = { o: '0' }

/** `0x` and two hex digits, at the start or after something that is not a letter or digit. */
const ADDRESS_LIKE = /(?:^|[^\p{L}\p{N}])0x[0-9a-f]{2}/u

export function looksLikeAddress(text: string): boolean {
  const folded = Array.from(text.normalize('NFKC').toLowerCase(), (ch) => {
    const latin = LATIN_LOOKALIKES[ch] ?? ch
    return ADDRESS_DIGITS[latin] ?? latin
  }).join('')
  return ADDRESS_LIKE.test(folded)
}

import { foldForSecrets, foldTextForSecrets } from '@shared/domain/visible-text'

/**
 * How main finds the API key in a text, in any form a server or a hostile name can hide it in
 * (docs/decisions/secret-matching.md): the text is read token by token, where a token is one
 * character or one escape that stands for a character (percent-encoded UTF-8, an HTML character
 * reference, a JSON or JavaScript escape), and each token's character is folded as the renderer's
 * display sees it and more (`foldForSecrets`: invisible characters, spaces and marks dropped,
 * full-width and look-alike forms folded, case folded). The key's own folded form, and its hex
 * and base64 forms, are then looked for in the folded text; a match covers every original
 * character it was folded from, invisible ones between them included.
 */

/** The folded text and, when asked for, where each folded character came from in the original. */
export interface FoldedText {
  text: string
  /** Where folded character i came from (null unless asked for). */
  map: Positions | null
}

/** Start and end (exclusive) in the original of the token each folded character came from. */
class Positions {
  starts: Int32Array = new Int32Array(256)
  ends: Int32Array = new Int32Array(256)
  length = 0

  /** `count` folded characters from the one token at start..end. */
  push(start: number, end: number, count: number): void {
    this.#room(count)
    this.starts.fill(start, this.length, this.length + count)
    this.ends.fill(end, this.length, this.length + count)
    this.length += count
  }

  /** One folded character from each original character from..to. */
  pushRun(from: number, to: number): void {
    this.#room(to - from)
    for (let k = from; k < to; k++, this.length++) {
      this.starts[this.length] = k
      this.ends[this.length] = k + 1
    }
  }

  #room(count: number): void {
    if (this.length + count <= this.starts.length) return
    const size = Math.max(this.starts.length * 2, this.length + count)
    const grow = (a: Int32Array): Int32Array => {
      const b = new Int32Array(size)
      b.set(a.subarray(0, this.length))
      return b
    }
    this.starts = grow(this.starts)
    this.ends = grow(this.ends)
  }
}

/** HTML's named references that stand for an invisible character, a space, or a sign a key may hold. */
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  sol: '/',
  plus: '+',
  equals: '=',
  percnt: '%',
  lowbar: '_',
  hyphen: '-',
  period: '.',
  colon: ':',
  nbsp: '\u00A0',
  shy: '\u00AD',
  zwsp: '\u200B',
  ZeroWidthSpace: '\u200B',
  zwnj: '\u200C',
  zwj: '\u200D',
  lrm: '\u200E',
  rlm: '\u200F',
  NoBreak: '\u2060',
  af: '\u2061',
  ApplyFunction: '\u2061',
  it: '\u2062',
  InvisibleTimes: '\u2062',
  ic: '\u2063',
  InvisibleComma: '\u2063',
  NegativeThinSpace: '\u200B',
  NegativeMediumSpace: '\u200B',
  NegativeThickSpace: '\u200B',
  NegativeVeryThinSpace: '\u200B',
}

const JS_SHORT: Readonly<Record<string, string>> = {
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
}

/** Printable ASCII that starts no escape (`%`, `&` and `\` do): folded by its case alone. */
const PLAIN = /[\x21-\x24\x27-\x5b\x5d-\x7e]+/y
/** ASCII spaces and controls: folded to nothing. */
const UNSEEN_ASCII = /[\x00-\x20\x7f]+/y
const ENTITY = /&(?:#[xX]([0-9a-fA-F]{1,6})|#(\d{1,7})|([A-Za-z][A-Za-z0-9]{1,30}));?/y
const PERCENT = /%([0-9a-fA-F]{2})/y
const BACKSLASH = /\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(.))/sy

interface Token {
  /** The character the token stands for, or null: read the original character at `start`. */
  cp: number | null
  end: number
}

function validCodePoint(n: number): number | null {
  return n >= 0 && n <= 0x10ffff ? n : null
}

function entityAt(text: string, i: number): Token | null {
  ENTITY.lastIndex = i
  const m = ENTITY.exec(text)
  if (!m) return null
  const cp = m[1] ? parseInt(m[1], 16) : m[2] ? parseInt(m[2], 10) : (NAMED[m[3]!]?.codePointAt(0) ?? null)
  if (cp === null || validCodePoint(cp) === null) return null
  return { cp, end: ENTITY.lastIndex }
}

/** A run of `%XX` bytes forming one UTF-8 character (a broken sequence is read as written). */
function percentAt(text: string, i: number): Token | null {
  const byte = (at: number): number | null => {
    PERCENT.lastIndex = at
    const m = PERCENT.exec(text)
    return m ? parseInt(m[1]!, 16) : null
  }
  const lead = byte(i)
  if (lead === null) return null
  const more = lead < 0x80 ? 0 : lead >= 0xf0 && lead < 0xf8 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc0 ? 1 : -1
  if (more < 0) return null
  let cp = more === 0 ? lead : lead & (0x3f >> more)
  for (let k = 1; k <= more; k++) {
    const b = byte(i + 3 * k)
    if (b === null || (b & 0xc0) !== 0x80) return null
    cp = (cp << 6) | (b & 0x3f)
  }
  return { cp: validCodePoint(cp), end: i + 3 * (more + 1) }
}

/** A JSON or JavaScript escape; `\uD83D\uDE00` (a surrogate pair) is one character. */
function backslashAt(text: string, i: number): Token | null {
  BACKSLASH.lastIndex = i
  const m = BACKSLASH.exec(text)
  if (!m) return null
  let end = BACKSLASH.lastIndex
  if (m[1]) return { cp: validCodePoint(parseInt(m[1], 16)) ?? 0xfffd, end }
  if (m[3]) return { cp: parseInt(m[3], 16), end }
  if (m[2]) {
    let cp = parseInt(m[2], 16)
    if (cp >= 0xd800 && cp < 0xdc00) {
      BACKSLASH.lastIndex = end
      const low = BACKSLASH.exec(text)
      const lo = low?.[2] ? parseInt(low[2], 16) : -1
      if (lo >= 0xdc00 && lo < 0xe000) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00)
        end = BACKSLASH.lastIndex
      }
    }
    return { cp, end }
  }
  const c = m[4]!
  return { cp: (JS_SHORT[c] ?? c).codePointAt(0)!, end }
}

function tokenAt(text: string, i: number, c: number): Token | null {
  if (c === 0x25) return percentAt(text, i)
  if (c === 0x26) return entityAt(text, i)
  if (c === 0x5c) return backslashAt(text, i)
  return null
}

/** Whether a text has anything `decode` reads differently (`%`, `&`, `\`). */
const MAY_ESCAPE = /[%&\\]/

/**
 * `text` folded for the key search: with `decode`, escapes read as the character they stand for;
 * with `map`, where each folded character came from.
 */
export function foldText(text: string, options: { map: boolean; decode: boolean }): FoldedText {
  const map = options.map
  const parts: string[] = []
  const positions = map ? new Positions() : null
  const push = (folded: string, start: number, end: number): void => {
    if (folded === '') return
    parts.push(folded)
    positions?.push(start, end, folded.length)
  }
  let i = 0
  while (i < text.length) {
    PLAIN.lastIndex = i
    if (PLAIN.exec(text)) {
      const end = PLAIN.lastIndex
      const run = text.slice(i, end)
      positions?.pushRun(i, end)
      parts.push(run.toLowerCase())
      i = end
      continue
    }
    UNSEEN_ASCII.lastIndex = i
    if (UNSEEN_ASCII.test(text)) {
      i = UNSEEN_ASCII.lastIndex
      continue
    }
    const token = options.decode ? tokenAt(text, i, text.charCodeAt(i)) : null
    if (token && token.cp !== null) {
      push(foldForSecrets(token.cp), i, token.end)
      i = token.end
      continue
    }
    const cp = text.codePointAt(i)!
    const end = i + (cp > 0xffff ? 2 : 1)
    push(foldForSecrets(cp), i, end)
    i = end
  }
  return { text: parts.join(''), map: positions }
}

/** Shorter folded forms are not looked for: they would match ordinary text. */
const MIN_NEEDLE = 4
/** Encoded forms (hex, base64) shorter than this are not looked for either. */
const MIN_ENCODED = 12

/**
 * What the folded text is searched for to find `secret`: its folded form, and, folded the same
 * way (so in either case), its UTF-8 bytes in hex and the part of its base64 and base64url that
 * is the same wherever it starts in a longer encoded text.
 */
export function secretNeedles(secret: string): string[] {
  const own = foldTextForSecrets(secret)
  if (own.length < MIN_NEEDLE) return []
  const bytes = Buffer.from(secret, 'utf8')
  const encoded = [bytes.toString('hex')]
  for (let offset = 0; offset < 3; offset++) {
    const b64 = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
    // Only the characters whose six bits all come from the secret's bytes.
    const core = b64.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6))
    encoded.push(core, core.replaceAll('+', '-').replaceAll('/', '_'))
  }
  const needles = [own, ...encoded.map((e) => e.toLowerCase()).filter((e) => e.length >= MIN_ENCODED)]
  return [...new Set(needles)]
}

/**
 * The text's folded readings: with its escapes decoded, and, when it has any, as written too (a
 * key holding `\`, `%` or `&` stands in a text as written as well as escaped).
 */
function readings(text: string, map: boolean): FoldedText[] {
  const decoded = foldText(text, { map, decode: true })
  return MAY_ESCAPE.test(text) ? [decoded, foldText(text, { map, decode: false })] : [decoded]
}

/** `text` with each escape `foldText` decodes replaced by the character it stands for. */
export function decodeEscapes(text: string): string {
  const candidates = /[%&\\]/g
  let out = ''
  let at = 0
  for (let m = candidates.exec(text); m; m = candidates.exec(text)) {
    const token = tokenAt(text, m.index, text.charCodeAt(m.index))
    if (!token || token.cp === null) continue
    out += text.slice(at, m.index) + String.fromCodePoint(token.cp)
    at = candidates.lastIndex = token.end
  }
  return at === 0 ? text : out + text.slice(at)
}

/**
 * Whether any needle occurs in a reading of `text`: the readings `foldText` gives, made with
 * whole-text passes (`foldTextForSecrets`) since no map back is needed.
 */
export function holdsAny(text: string, needles: readonly string[]): boolean {
  const plain = decodeEscapes(text)
  const decoded = foldTextForSecrets(plain)
  if (needles.some((n) => decoded.includes(n))) return true
  // Nothing decoded: the reading as written is the same text.
  if (plain === text) return false
  const written = foldTextForSecrets(text)
  return needles.some((n) => written.includes(n))
}

export interface Span {
  start: number
  end: number
  /** Which needle list found it. */
  owner: number
}

/**
 * Where each needle occurs in `text`, as spans of the original text, overlapping spans merged;
 * each span carries the index of the needle list it was found by.
 */
export function findSpans(text: string, needleLists: readonly string[][]): Span[] {
  const raw: Span[] = []
  for (const folded of readings(text, true))
    needleLists.forEach((needles, owner) => {
      for (const needle of needles) {
        let at = folded.text.indexOf(needle)
        while (at >= 0) {
          raw.push({ start: folded.map!.starts[at]!, end: folded.map!.ends[at + needle.length - 1]!, owner })
          at = folded.text.indexOf(needle, at + 1)
        }
      }
    })
  raw.sort((a, b) => a.start - b.start || b.end - a.end)
  const merged: typeof raw = []
  for (const s of raw) {
    const last = merged.at(-1)
    if (last && s.start < last.end) last.end = Math.max(last.end, s.end)
    else merged.push({ ...s })
  }
  return merged
}

import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'

export interface Logger {
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

/**
 * Secrets registered here are replaced by `…last4` in every line before it is written.
 * Each secret is matched as written and in every form a server is known to echo it back in
 * (see `secretPattern`), so a server that echoes the request URL or the key in an error page
 * or a JSON body does not get it past main.
 */
/** What a writer needs of the `Redactor`: whether a text holds a key, and the text without it. */
export type Redact = Pick<Redactor, 'contains' | 'redact'>

export class Redactor {
  readonly #secrets = new Map<string, { test: RegExp; all: RegExp }>()

  add(secret: string): void {
    if (secret.length < 4 || this.#secrets.has(secret)) return
    const source = secretPattern(secret)
    this.#secrets.set(secret, { test: new RegExp(source), all: new RegExp(source, 'g') })
  }

  delete(secret: string): void {
    this.#secrets.delete(secret)
  }

  /** Whether `text` holds any registered secret, in any of the forms it is matched in. */
  contains(text: string): boolean {
    for (const { test } of this.#secrets.values()) if (test.test(text)) return true
    return false
  }

  redact(text: string): string {
    let out = text
    for (const [secret, { all }] of this.#secrets) out = out.replace(all, `…${secret.slice(-4)}`)
    return out
  }
}

/**
 * Whether a value whose JSON text is `json` may hold a registered secret in any string or key: one
 * look at the text instead of a walk over every string and key (a page of 50 transactions is
 * thousands of strings). Sound because a secret's forms without a backslash survive JSON's
 * escaping: letters, digits and `%&#;+/=` are written as they are, and for `"`, `\` and control
 * characters the redactor also matches the escaped forms JSON writes (`\"`, `\\`, `\n` and the
 * other short escapes, `\u00XX`). Those escaped forms can also stand in a string as it is (a field
 * holding JSON text, a PHP-style `\/`): JSON writes their backslash doubled, out of the pattern's
 * reach, so a text with any backslash in a string or key (`\\` in the JSON) may hold one. The value
 * must be plain data (parsed JSON, plain objects): JSON must see every string a walk would.
 */
export function jsonMayHoldSecret(json: string, r: { contains(text: string): boolean }): boolean {
  return json.includes('\\\\') || r.contains(json)
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
/** A hex digit pair matched in either case ("2f" and "2F"), without making the rest case-blind. */
const hexCi = (n: number, width: number): string =>
  n
    .toString(16)
    .padStart(width, '0')
    .split('')
    .map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d))
    .join('')
const NAMED: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;', "'": '&#39;' }
/** JSON's short escapes of control characters (`\n` rather than `\u000a`). */
const JSON_SHORT: Record<string, string> = { '\b': 'b', '\t': 't', '\n': 'n', '\f': 'f', '\r': 'r' }

/**
 * One regular expression for a secret in every form a server is known to echo it in: as
 * written; URL-encoded (component or form, either case of hex); JSON-escaped (`\/`, `\"`,
 * `\u002f`: PHP and others escape `/`; `\n` and JSON's other short escapes); as HTML entities
 * (an error page); and whole in base64 or base64url. Each character outside `[A-Za-z0-9_.-]` may
 * take any of its forms, so a body that mixes encoders is matched too.
 */
function secretPattern(secret: string): string {
  const parts: string[] = []
  for (const c of secret) {
    if (/[A-Za-z0-9_.-]/.test(c)) {
      parts.push(escapeRegex(c))
      continue
    }
    const cp = c.codePointAt(0)!
    const forms = [escapeRegex(c), [...Buffer.from(c, 'utf8')].map((b) => `%${hexCi(b, 2)}`).join('')]
    if (c === ' ') forms.push('\\+')
    if (c === '"' || c === '\\' || c === '/') forms.push(`\\\\${escapeRegex(c)}`)
    if (cp <= 0xffff) forms.push(`\\\\u${hexCi(cp, 4)}`)
    if (JSON_SHORT[c]) forms.push(`\\\\${JSON_SHORT[c]}`)
    forms.push(`&#[xX]0*${hexCi(cp, 1)};`, `&#0*${cp};`)
    if (NAMED[c]) forms.push(NAMED[c])
    parts.push(`(?:${forms.join('|')})`)
  }
  const b64 = Buffer.from(secret, 'utf8').toString('base64')
  const whole = [b64, b64.replace(/=+$/, ''), Buffer.from(secret, 'utf8').toString('base64url')].map((f) =>
    escapeRegex(f).replaceAll('\\/', '(?:\\/|\\\\/)'),
  )
  return [parts.join(''), ...whole].join('|')
}

/** Writes to stderr and, when given, to a log file; every line passes through the redactor. */
export function createLogger(redactor: Redactor, file?: string): Logger {
  if (file) mkdirSync(dirname(file), { recursive: true })
  const write = (level: string, message: string): void => {
    const line = `${new Date().toISOString()} ${level} ${redactor.redact(message)}\n`
    process.stderr.write(line)
    if (file) {
      try {
        appendFileSync(file, line)
      } catch {
        // A full disk must not take the app down; stderr still has the line.
      }
    }
  }
  return { info: (m) => write('info', m), warn: (m) => write('warn', m), error: (m) => write('error', m) }
}

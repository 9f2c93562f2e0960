import { logFile, type AppendFs } from './log-file'
import { findSpans, holdsAny, secretNeedles } from './secret-scan'

export interface Logger {
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

/**
 * Takes every registered API key out of a text (`Redactor.redact`): the one type of a
 * redaction that is passed on (in the service's context, service-types.ts).
 */
export type Redact = (text: string) => string

/** What a writer needs of the `Redactor`: whether a text holds a key, and the text without it. */
export type KeyScan = Pick<Redactor, 'contains' | 'redact'>

/**
 * Secrets registered here are replaced by `…last4` in every line before it is written. A secret
 * is found however it is written (secret-scan.ts): with invisible characters, spaces or accents
 * inside, in full-width or look-alike letters, in any case, percent-encoded, JSON-escaped, as HTML
 * character references, in hex or base64; the whole span it was found in is replaced, the
 * invisible characters inside it too. The search folds each character as the renderer's display
 * does and more (`foldForSecrets`, shared/domain/visible-text.ts), so a name the display would
 * show as the key is always found here first (docs/decisions/secret-matching.md).
 */
export class Redactor {
  readonly #secrets = new Map<string, string[]>()

  add(secret: string): void {
    if (secret.length < 4 || this.#secrets.has(secret)) return
    const needles = secretNeedles(secret)
    if (needles.length > 0) this.#secrets.set(secret, needles)
  }

  delete(secret: string): void {
    this.#secrets.delete(secret)
  }

  #needles(): string[] {
    return [...this.#secrets.values()].flat()
  }

  /** Whether `text` holds any registered secret, in any of the forms it is matched in. */
  contains(text: string): boolean {
    if (this.#secrets.size === 0 || text.length < 4) return false
    return holdsAny(text, this.#needles())
  }

  redact(text: string): string {
    // Replacing can join what is left into a new match (a key written inside itself): again, a
    // few times at most, and past that nothing of the text is kept.
    let out = text
    for (let round = 0; round < 4; round++) {
      if (!this.contains(out)) return out
      out = this.#replace(out)
    }
    return this.contains(out) ? '[redacted]' : out
  }

  #replace(text: string): string {
    const secrets = [...this.#secrets]
    const spans = findSpans(
      text,
      secrets.map(([, needles]) => needles),
    )
    let out = ''
    let at = 0
    for (const { start, end, owner } of spans) {
      out += `${text.slice(at, start)}…${secrets[owner]![0].slice(-4)}`
      at = end
    }
    return out + text.slice(at)
  }
}

/**
 * Whether a value whose JSON text is `json` may hold a registered secret in any string or key: one
 * look at the text instead of a walk over every string and key (a page of 50 transactions is
 * thousands of strings). Sound because the search reads JSON's escapes as the characters they
 * stand for (`\"`, `\\`, `\n`, `\u00XX`, secret-scan.ts), so a string's JSON text folds as the
 * string does. Except where a string holds a backslash itself: JSON writes it doubled (`\\` in
 * the text), and what follows it (`u200b`, a PHP-style `/`) is then read as written, not as the
 * escape the string's own text is read as; so a text with `\\` may hold one and is walked. The
 * value must be plain data (parsed JSON, plain objects): JSON must see every string a walk would.
 */
export function jsonMayHoldSecret(json: string, r: { contains(text: string): boolean }): boolean {
  return json.includes('\\\\') || r.contains(json)
}

/**
 * Writes to stderr and, when given, to a log file (appended asynchronously: a hanging disk never
 * blocks the main process, log-file.ts); every line passes through the redactor.
 */
export function createLogger(redactor: Redactor, file?: string, fs?: AppendFs): Logger {
  const out = file === undefined ? null : logFile(file, { fs })
  const write = (level: string, message: string): void => {
    const line = `${new Date().toISOString()} ${level} ${redactor.redact(message)}\n`
    process.stderr.write(line)
    out?.write(line)
  }
  return { info: (m) => write('info', m), warn: (m) => write('warn', m), error: (m) => write('error', m) }
}

import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'

export interface Logger {
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

/**
 * Secrets registered here are replaced by `…last4` in every line before it is written.
 * Each secret is matched as written and in the forms a URL gives it (`encodeURIComponent`,
 * a query string's form encoding, lowercase percent escapes): a server that echoes the
 * request URL back in an error page uses any of them.
 */
export class Redactor {
  readonly #secrets = new Map<string, string[]>()

  add(secret: string): void {
    if (secret.length < 4 || this.#secrets.has(secret)) return
    const encoded = [encodeURIComponent(secret), new URLSearchParams([['k', secret]]).toString().slice(2)]
    const forms = new Set([secret, ...encoded, ...encoded.map((e) => e.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()))])
    // Longest first, so a form that contains another is replaced whole.
    this.#secrets.set(secret, [...forms].sort((a, b) => b.length - a.length))
  }

  delete(secret: string): void {
    this.#secrets.delete(secret)
  }

  /** Whether `text` holds any registered secret (raw or URL-encoded). */
  contains(text: string): boolean {
    for (const forms of this.#secrets.values()) {
      if (forms.some((form) => text.includes(form))) return true
    }
    return false
  }

  redact(text: string): string {
    let out = text
    for (const [secret, forms] of this.#secrets) {
      for (const form of forms) out = out.split(form).join(`…${secret.slice(-4)}`)
    }
    return out
  }
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

import { appendFileSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'

export interface Logger {
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

/** Secrets registered here are replaced by `…last4` in every line before it is written. */
export class Redactor {
  readonly #secrets = new Set<string>()

  add(secret: string): void {
    if (secret.length >= 4) this.#secrets.add(secret)
  }

  delete(secret: string): void {
    this.#secrets.delete(secret)
  }

  /** Whether `text` holds any registered secret (raw or URL-encoded). */
  contains(text: string): boolean {
    for (const secret of this.#secrets) {
      if (text.includes(secret) || text.includes(encodeURIComponent(secret))) return true
    }
    return false
  }

  redact(text: string): string {
    let out = text
    for (const secret of this.#secrets) {
      out = out.split(secret).join(`…${secret.slice(-4)}`)
      const encoded = encodeURIComponent(secret)
      if (encoded !== secret) out = out.split(encoded).join(`…${secret.slice(-4)}`)
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

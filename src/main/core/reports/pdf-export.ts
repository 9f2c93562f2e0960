import { randomUUID } from 'node:crypto'
import { basename } from 'node:path'
import type { PdfOutcome } from '@shared/bridge/report-pdf'
import { AppError } from '../util/app-error'
import { writeFileAtomic } from '../util/atomic-file'
import type { Logger } from '../util/logger'

/** What a host that can print gives: the desktop app (src/main/electron/pdf-printer.ts). */
export interface PdfHost {
  /** The report as PDF bytes, rendered where nothing can reach the network. */
  print(html: string): Promise<Uint8Array>
  /** The path the user picked in a save dialog offering this name; null when cancelled. */
  choosePath(suggestedName: string): Promise<string | null>
}

export interface PdfExportOptions {
  /** Absent in the web host: the page then offers the browser's own print. */
  host?: PdfHost
  redactor: { contains(text: string): boolean; redact(text: string): string }
  log: Logger
  emit: (outcome: PdfOutcome) => void
  /** Default: an atomic write (a crash leaves the old file or the whole new one). */
  write?: (path: string, bytes: Uint8Array) => Promise<void>
}

/**
 * Saves a report the renderer built as a PDF. The call answers at once with an id and the
 * outcome follows as an event: the save dialog waits on the user, longer than a bridge call
 * may take. One save at a time, so a second click cannot open a second dialog.
 */
export class PdfExport {
  readonly #o: PdfExportOptions
  #running = false

  constructor(options: PdfExportOptions) {
    this.#o = options
  }

  available(): boolean {
    return this.#o.host !== undefined
  }

  save(html: string, filename: string): { id: string } {
    const host = this.#o.host
    if (!host)
      throw new AppError(
        'invalid-input',
        'This window cannot save a PDF. Use “Print report” and choose “Save as PDF” in the print dialog.',
        { field: 'host' },
      )
    if (this.#running)
      throw new AppError('conflict', 'A PDF is already being saved. Finish or cancel its save dialog first.')
    this.#running = true
    const id = randomUUID()
    void this.#run(host, id, html, filename).finally(() => (this.#running = false))
    return { id }
  }

  async #run(host: PdfHost, id: string, html: string, filename: string): Promise<void> {
    const { redactor, log, emit } = this.#o
    // The HTML comes from the renderer, built from answers main had already cleaned; it is
    // checked once more before it becomes a file, since a file outlives any later fix.
    let safe = html
    if (redactor.contains(html)) {
      safe = redactor.redact(html)
      log.warn('a report sent for PDF held a secret; it was redacted before printing')
    }
    try {
      const pdf = await host.print(safe)
      const path = await host.choosePath(filename)
      if (path === null) return emit({ id, outcome: 'cancelled', file: null, message: null })
      await (this.#o.write ?? writeFileAtomic)(path, pdf)
      emit({ id, outcome: 'saved', file: basename(path), message: null })
    } catch (error) {
      const reason = redactor.redact(error instanceof Error ? error.message : String(error))
      log.error(`the report PDF was not saved: ${reason}`)
      emit({
        id,
        outcome: 'failed',
        file: null,
        message: `The PDF was not saved (${reason}). Try again in another folder, or download the report as HTML and print it.`,
      })
    }
  }
}

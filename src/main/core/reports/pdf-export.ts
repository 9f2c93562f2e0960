import { randomUUID } from 'node:crypto'
import { basename } from 'node:path'
import type { PdfOutcome } from '@shared/bridge/report-pdf'
import { errorMessage } from '@shared/guards'
import { AppError } from '../util/app-error'
import { writeFileAtomic } from '../util/atomic-file'
import { refuseWithKey } from './file-exit'
import type { Logger, KeyScan } from '../util/logger'

/** What a host that can print gives: the desktop app (src/main/electron/pdf-printer.ts). */
export interface PdfHost {
  /** The report as PDF bytes, rendered where nothing can reach the network; `stop` ends the render. */
  print(html: string, stop: AbortSignal): Promise<Uint8Array>
  /** The path the user picked in a save dialog offering this name; null when cancelled. */
  choosePath(suggestedName: string): Promise<string | null>
}

export interface PdfExportOptions {
  /** Absent in the web host: the page then offers the browser's own print. */
  host?: PdfHost
  redactor: KeyScan
  log: Logger
  emit: (outcome: PdfOutcome) => void
  /** How long the render may take. Default 60 s. */
  printDeadlineMs?: number
}

/**
 * A report of thousands of rows renders in seconds; one that has not after a minute never will
 * (a hung render process): the save fails and the next one may start.
 */
const PRINT_DEADLINE_MS = 60_000

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
    // The HTML comes from the renderer, built from answers main had already cleaned; it is
    // checked once more before it becomes a file, since a file outlives any later fix.
    refuseWithKey(this.#o, filename, html)
    this.#running = true
    const id = randomUUID()
    void this.#run(host, id, html, filename).finally(() => (this.#running = false))
    return { id }
  }

  async #run(host: PdfHost, id: string, html: string, filename: string): Promise<void> {
    const { redactor, log, emit } = this.#o
    try {
      const pdf = await this.#print(host, html)
      // No deadline here: the save dialog waits on the user.
      const path = await host.choosePath(filename)
      if (path === null) return emit({ id, outcome: 'cancelled', file: null, message: null })
      await writeFileAtomic(path, pdf)
      emit({ id, outcome: 'saved', file: basename(path), message: null })
    } catch (error) {
      const reason = redactor.redact(errorMessage(error))
      log.error(`the report PDF was not saved: ${reason}`)
      emit({
        id,
        outcome: 'failed',
        file: null,
        message: `The PDF was not saved (${reason}). Try again in another folder, or download the report as HTML and print it.`,
      })
    }
  }

  /** The host's render within the deadline; past it the render is stopped and this fails. */
  async #print(host: PdfHost, html: string): Promise<Uint8Array> {
    const ms = this.#o.printDeadlineMs ?? PRINT_DEADLINE_MS
    const stop = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        stop.abort()
        reject(new Error(`the report did not render within ${ms / 1000} s`))
      }, ms)
    })
    const printing = host.print(html, stop.signal)
    // A render stopped at its deadline may still fail later: its outcome was told already.
    printing.catch(() => {})
    try {
      return await Promise.race([printing, late])
    } finally {
      clearTimeout(timer)
    }
  }
}

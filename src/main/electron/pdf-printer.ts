import { app, dialog, session, type BrowserWindow, type Session } from 'electron'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { PdfHost } from '../core/reports/pdf-export'
import type { Logger } from '../core/util/logger'
import { denyAllPermissions } from './permissions'
import { hardenedWindow } from './web-preferences'

/** An in-memory session of its own (no `persist:`): nothing the report does is kept or shared. */
export const PDF_PARTITION = 'chainscope-report-pdf'

export interface PdfPrinterOptions {
  /** The window the save dialog belongs to, when there is one. */
  parent: () => BrowserWindow | null
  log: Logger
}

/**
 * Electron's part of saving a report as PDF: the report is loaded from a temporary file into
 * a hidden, sandboxed window without JavaScript whose session cancels every request but that
 * one file and is offline besides, then `printToPDF`; the user picks where it goes.
 */
export function electronPdfHost(options: PdfPrinterOptions): PdfHost {
  let offline: Session | null = null
  const pdfSession = (): Session => {
    if (offline) return offline
    offline = session.fromPartition(PDF_PARTITION)
    offline.enableNetworkEmulation({ offline: true })
    denyAllPermissions(offline, options.log)
    return offline
  }
  return {
    async print(html, stop) {
      const dir = await mkdtemp(join(app.getPath('temp'), 'chainscope-report-'))
      const file = join(dir, 'report.html')
      const only = pathToFileURL(file).href
      const ses = pdfSession()
      // Set for each report (it replaces the last one): the one file this print loads, nothing else.
      ses.webRequest.onBeforeRequest((details, callback) => callback({ cancel: details.url !== only }))
      // No JavaScript at all, in the offline session above; the app window's hardening besides.
      const window = hardenedWindow({ show: false }, { session: ses, javascript: false })
      // Stopped (its deadline passed): the wait for the load or print ends at once, since neither
      // need ever settle once the render is given up (a loadURL promise has been left unsettled
      // before: electron#41193); `finally` then closes the window and deletes the temporary copy.
      const stopped = new Promise<never>((_resolve, reject) =>
        stop.addEventListener('abort', () => reject(new Error('the render was stopped')), { once: true }),
      )
      stopped.catch(() => {})
      try {
        await writeFile(file, html, { encoding: 'utf8', mode: 0o600 })
        await Promise.race([window.loadURL(only), stopped])
        return await Promise.race([
          window.webContents.printToPDF({ printBackground: true, preferCSSPageSize: true }),
          stopped,
        ])
      } finally {
        if (!window.isDestroyed()) window.destroy()
        await rm(dir, { recursive: true, force: true })
      }
    },
    async choosePath(suggestedName) {
      const box = {
        title: 'Save the report as PDF',
        defaultPath: join(app.getPath('documents'), suggestedName),
        filters: [{ name: 'PDF', extensions: ['pdf'] }],
      }
      const parent = options.parent()
      const r = parent ? await dialog.showSaveDialog(parent, box) : await dialog.showSaveDialog(box)
      return r.canceled || !r.filePath ? null : r.filePath
    },
  }
}

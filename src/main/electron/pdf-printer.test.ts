import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { PdfOutcome } from '@shared/bridge/report-pdf'
import { PdfExport } from '../core/reports/pdf-export'
import { Redactor, type Logger } from '../core/util/logger'
import { electronPdfHost, PDF_PARTITION } from './pdf-printer'
import { app, BrowserWindow, dialog, resetFakeElectron, session, type FakeWebContents } from './testing/fake-electron'

vi.mock('electron', () => import('./testing/fake-electron'))

const KEY = 'sbx_live_key_0123456789abcdef'
const REPORT = `<!doctype html><title>r</title><p>Echo a name</p><img src="https://evil.example/x.png">`
const log: Logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }
let dir: string
let loaded: { url: string; html: string }[]
let windows: BrowserWindow[]
let outcomes: PdfOutcome[]

function exporter(): PdfExport {
  const redactor = new Redactor()
  redactor.add(KEY)
  return new PdfExport({
    host: electronPdfHost({ parent: () => null, log }),
    redactor,
    log,
    emit: (o) => outcomes.push(o),
  })
}

/**
 * The save answers at once; its outcome is the event that follows (`nth`, from 1, for a later
 * save). A test waits for the outcome of every save it starts: one left running would write
 * into the next test's folders and answer its dialog.
 */
async function outcome(nth = 1): Promise<PdfOutcome> {
  await vi.waitFor(() => expect(outcomes).toHaveLength(nth), { timeout: 10_000, interval: 10 })
  return outcomes[nth - 1]!
}

beforeEach(() => {
  resetFakeElectron()
  dir = mkdtempSync(join(tmpdir(), 'chainscope-pdf-'))
  mkdirSync(join(dir, 'temp'))
  app.paths.set('temp', join(dir, 'temp'))
  app.paths.set('documents', join(dir, 'docs'))
  loaded = []
  windows = []
  outcomes = []
  // Each window's load reads the file it is pointed at, as the page would.
  app.on('web-contents-created', (_event: unknown, contents: FakeWebContents) => {
    const w = BrowserWindow.fromWebContents(contents)!
    windows.push(w)
    w.loadURL.mockImplementation(async (url: string) => {
      loaded.push({ url, html: readFileSync(fileURLToPath(url), 'utf8') })
    })
  })
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('saving a report as PDF in the desktop app', () => {
  it('prints in a hidden, sandboxed window with no JavaScript and no network, and saves where the user chose', async () => {
    const target = join(dir, 'out', 'case.pdf')
    mkdirSync(join(dir, 'out'))
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: false, filePath: target })
    const { id } = exporter().save(REPORT, 'report-case.pdf')
    expect(await outcome()).toEqual({ id, outcome: 'saved', file: 'case.pdf', message: null })

    expect(windows).toHaveLength(1)
    const w = windows[0]!
    const prefs = w.options.webPreferences as Record<string, unknown>
    expect(w.options.show).toBe(false)
    expect(prefs).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      javascript: false,
      disableBlinkFeatures: 'Auxclick',
    })
    expect(prefs).not.toHaveProperty('preload')
    // Its own session, kept in memory only, offline, every permission denied.
    expect(PDF_PARTITION.startsWith('persist:')).toBe(false)
    const ses = session.partitions.get(PDF_PARTITION)!
    expect(prefs.session).toBe(ses)
    expect(ses.enableNetworkEmulation).toHaveBeenCalledWith({ offline: true })
    expect(ses.permissionCheckHandler?.()).toBe(false)

    // Every request but the report's own file is cancelled: the page cannot reach the network.
    expect(loaded).toHaveLength(1)
    const decide = (url: string): boolean => {
      let cancel: boolean | null = null
      ses.beforeRequest!({ url }, (r) => (cancel = r.cancel))
      return cancel!
    }
    expect(decide(loaded[0]!.url)).toBe(false)
    for (const url of [
      'https://evil.example/x.png',
      'http://127.0.0.1:8545/',
      'ws://localhost:1/',
      'data:text/html,<p>x</p>',
      'file:///etc/passwd',
      `${loaded[0]!.url}?again`,
    ])
      expect(decide(url), url).toBe(true)

    expect(loaded[0]!.html).toContain('Echo a name')
    expect(w.webContents.printToPDF).toHaveBeenCalledWith({ printBackground: true, preferCSSPageSize: true })
    expect([...readFileSync(target)]).toEqual([0x25, 0x50, 0x44, 0x46])
    expect(dialog.showSaveDialog.mock.calls[0]![0]).toMatchObject({
      defaultPath: join(dir, 'docs', 'report-case.pdf'),
      filters: [{ name: 'PDF', extensions: ['pdf'] }],
    })
    // The window is gone and the temporary copy of the report deleted.
    expect(w.isDestroyed()).toBe(true)
    expect(readdirSync(join(dir, 'temp'))).toEqual([])
  })

  it('refuses a report holding the key, hidden or not, in words: nothing is printed, asked or written', () => {
    for (const hidden of [KEY, `${KEY.slice(0, 5)}\u200B${KEY.slice(5)}`, `${KEY.slice(0, 5)}&shy;${KEY.slice(5)}`]) {
      const report = REPORT.replace('a name', hidden)
      expect(() => exporter().save(report, 'report-case.pdf')).toThrow(
        /^report-case\.pdf was not saved: it holds this profile's API key/,
      )
    }
    expect(windows).toEqual([])
    expect(dialog.showSaveDialog).not.toHaveBeenCalled()
    expect(outcomes).toEqual([])
    expect(readdirSync(join(dir, 'temp'))).toEqual([])
  })

  it('writes nothing when the save dialog is cancelled', async () => {
    const { id } = exporter().save(REPORT, 'r.pdf')
    expect(await outcome()).toEqual({ id, outcome: 'cancelled', file: null, message: null })
    expect(readdirSync(join(dir, 'temp'))).toEqual([])
    expect(existsSync(join(dir, 'docs'))).toBe(false)
  })

  it('says what went wrong when printing fails, with the window closed and the copy deleted', async () => {
    app.on('web-contents-created', (_event: unknown, contents: FakeWebContents) =>
      contents.printToPDF.mockRejectedValueOnce(new Error(`renderer gone near ${KEY}`)),
    )
    exporter().save(REPORT, 'r.pdf')
    const o = await outcome()
    expect(o.outcome).toBe('failed')
    expect(o.message).toMatch(/^The PDF was not saved \(renderer gone near …cdef\)\. Try again/)
    expect(o.message).not.toContain(KEY)
    expect(dialog.showSaveDialog).not.toHaveBeenCalled()
    expect(windows[0]!.isDestroyed()).toBe(true)
    expect(readdirSync(join(dir, 'temp'))).toEqual([])
  })

  it('gives up on a render that never ends: the window is closed, the save fails in words, the next may start', async () => {
    app.on('web-contents-created', (_event: unknown, contents: FakeWebContents) =>
      BrowserWindow.fromWebContents(contents)!.loadURL.mockImplementation(() => new Promise(() => {})),
    )
    const redactor = new Redactor()
    const pdf = new PdfExport({
      host: electronPdfHost({ parent: () => null, log }),
      redactor,
      log,
      emit: (o) => outcomes.push(o),
      printDeadlineMs: 50,
    })
    pdf.save(REPORT, 'r.pdf')
    const o = await outcome()
    expect(o).toMatchObject({ outcome: 'failed', file: null })
    expect(o.message).toMatch(/^The PDF was not saved \(the report did not render within 0.05 s\)\. Try again/)
    expect(windows[0]!.isDestroyed()).toBe(true)
    expect(dialog.showSaveDialog).not.toHaveBeenCalled()
    // The load never settled, yet the temporary copy of the report is deleted.
    await vi.waitFor(() => expect(readdirSync(join(dir, 'temp'))).toEqual([]), { timeout: 10_000, interval: 10 })
    await vi.waitFor(() => expect(() => pdf.save(REPORT, 'r.pdf')).not.toThrow())
    expect(await outcome(2)).toMatchObject({ outcome: 'failed' })
  })

  it('refuses a second save while one is waiting on its dialog', async () => {
    let answer!: (r: { canceled: boolean }) => void
    dialog.showSaveDialog.mockImplementationOnce(() => new Promise((r) => (answer = r)))
    const pdf = exporter()
    pdf.save(REPORT, 'r.pdf')
    // A hang guard, not a timing check: the dialog follows the render, which writes and reads
    // the report's temporary copy on disk (it can take longer than waitFor's 1 s default when busy).
    await vi.waitFor(() => expect(dialog.showSaveDialog).toHaveBeenCalled(), { timeout: 10_000, interval: 10 })
    expect(() => pdf.save(REPORT, 'r.pdf')).toThrow(/already being saved/)
    answer({ canceled: true })
    await outcome()
    await vi.waitFor(() => expect(() => pdf.save(REPORT, 'r.pdf')).not.toThrow())
    expect(await outcome(2)).toMatchObject({ outcome: 'cancelled' })
  })
})

describe('the web host', () => {
  it('has no PDF printer: the capability is absent and a save is refused in words', () => {
    const pdf = new PdfExport({ redactor: new Redactor(), log, emit: (o) => outcomes.push(o) })
    expect(pdf.available()).toBe(false)
    expect(() => pdf.save(REPORT, 'r.pdf')).toThrow(/Print report/)
    expect(outcomes).toEqual([])
  })
})

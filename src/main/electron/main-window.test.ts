import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Logger } from '../core/util/logger'
import { createMainWindow, revealWindow } from './main-window'
import { BrowserWindow, resetFakeElectron, screen } from './testing/fake-electron'
import { WindowStateStore } from './window-state'

vi.mock('electron', () => import('./testing/fake-electron'))

const log: Logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }
let dir: string
let store: WindowStateStore

beforeEach(() => {
  resetFakeElectron()
  vi.useFakeTimers()
  dir = mkdtempSync(join(tmpdir(), 'chainscope-window-'))
  store = new WindowStateStore({ dataDir: dir, log })
})
afterEach(() => {
  vi.useRealTimers()
  rmSync(dir, { recursive: true, force: true })
})

const open = (): BrowserWindow =>
  createMainWindow({ preloadPath: '/app/out/preload/index.cjs', windowState: store, log }) as unknown as BrowserWindow
const saved = (): unknown => JSON.parse(readFileSync(join(dir, 'window-state.json'), 'utf8'))

describe('main window options', () => {
  it('isolates and sandboxes the renderer, with Node off and web security on', () => {
    const prefs = open().options.webPreferences as Record<string, unknown>
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    })
    expect(prefs).not.toHaveProperty('enableBlinkFeatures')
    expect(prefs).not.toHaveProperty('additionalArguments')
  })

  it('loads the renderer from app://, not file://, and shows the window once painted', () => {
    const window = open()
    expect(window.loadURL).toHaveBeenCalledExactlyOnceWith('app://chainscope/index.html')
    expect(window.options.show).toBe(false)
    expect(window.isVisible()).toBe(false)
    window.emit('ready-to-show')
    expect(window.isVisible()).toBe(true)
  })

  it('brings a minimised, hidden window forward', () => {
    const window = open()
    window.minimize()
    revealWindow(window as never)
    expect(window.isMinimized()).toBe(false)
    expect(window.isVisible()).toBe(true)
    expect(window.focused).toBe(true)
  })
})

describe('remembered bounds', () => {
  it('opens at the default size the first time', () => {
    expect(open().options).toMatchObject({ width: 1280, height: 800 })
    expect(open().options).not.toHaveProperty('x')
  })

  it('saves the bounds after moves settle and on close, and restores them next time', async () => {
    const window = open()
    window.bounds = { x: 100, y: 120, width: 1000, height: 700 }
    window.emit('move')
    window.emit('resize')
    await vi.advanceTimersByTimeAsync(499)
    expect(() => saved()).toThrow()
    await vi.advanceTimersByTimeAsync(1)
    expect(saved()).toEqual({ version: 1, bounds: { x: 100, y: 120, width: 1000, height: 700 }, maximized: false })

    window.bounds = { x: 200, y: 220, width: 1100, height: 750 }
    window.maximized = true
    window.close()
    expect(open().options).toMatchObject({ x: 200, y: 220, width: 1100, height: 750 })
    expect(BrowserWindow.windows.at(-1)!.isMaximized()).toBe(true)
  })

  it('falls back to the default when the saved window would be off every screen', () => {
    writeFileSync(
      join(dir, 'window-state.json'),
      JSON.stringify({ version: 1, bounds: { x: 5000, y: 3000, width: 1000, height: 700 }, maximized: false }),
    )
    expect(open().options).toMatchObject({ width: 1280, height: 800 })
    screen.getAllDisplays.mockReturnValueOnce([
      { workArea: { x: 0, y: 0, width: 1920, height: 1080 } },
      { workArea: { x: 1920, y: 0, width: 2560, height: 1440 } },
    ] as never)
    writeFileSync(
      join(dir, 'window-state.json'),
      JSON.stringify({ version: 1, bounds: { x: 2500, y: 100, width: 1000, height: 700 }, maximized: false }),
    )
    expect(open().options).toMatchObject({ x: 2500, y: 100 })
  })

  it('ignores a corrupt or foreign state file and keeps the minimum size', () => {
    for (const text of [
      '{not json',
      '{"version":2}',
      JSON.stringify({ version: 1, bounds: { x: 'a' }, maximized: false }),
    ]) {
      writeFileSync(join(dir, 'window-state.json'), text)
      expect(open().options).toMatchObject({ width: 1280, height: 800 })
    }
    writeFileSync(
      join(dir, 'window-state.json'),
      JSON.stringify({ version: 1, bounds: { x: 10, y: 10, width: 200, height: 100 }, maximized: false }),
    )
    expect(open().options).toMatchObject({ x: 10, y: 10, width: 900, height: 600 })
  })
})

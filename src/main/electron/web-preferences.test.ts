import { beforeEach, describe, expect, it, vi } from 'vitest'
import { BrowserWindow, resetFakeElectron } from './testing/fake-electron'
import { hardenedWindow } from './web-preferences'

vi.mock('electron', () => import('./testing/fake-electron'))

beforeEach(() => resetFakeElectron())

describe('hardened window', () => {
  it("keeps a window's own preferences but lets none of them undo a hardened one", () => {
    const window = hardenedWindow(
      { show: false },
      { preload: '/p.cjs', sandbox: false, contextIsolation: false, nodeIntegration: true, javascript: false },
    ) as unknown as BrowserWindow
    expect(window.options.show).toBe(false)
    expect(window.options.webPreferences).toMatchObject({
      preload: '/p.cjs',
      javascript: false,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
    })
  })
})

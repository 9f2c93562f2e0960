import type { WebContents } from 'electron'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Logger } from '../core/util/logger'
import { checkExternalUrl, UserGestureTracker } from './external-links'
import { BrowserWindow, fakeEvent, FakeWebContents, resetFakeElectron, shell } from './testing/fake-electron'
import { createRouteWindow } from './main-window'
import { guardWebContents, handleWindowOpen, type WebContentsGuardOptions } from './web-contents-guard'

vi.mock('electron', () => import('./testing/fake-electron'))

const log: Logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }
let clock = 0
let gestures: UserGestureTracker
let contents: FakeWebContents
let options: WebContentsGuardOptions

beforeEach(() => {
  resetFakeElectron()
  clock = 1_000_000
  gestures = new UserGestureTracker({ now: () => clock, windowMs: 2000 })
  contents = new FakeWebContents()
  options = {
    gestures,
    log,
    openExternal: (url) => shell.openExternal(url),
    openAppWindow: (url) => void createRouteWindow({ preloadPath: '/app/preload.cjs', url, log }),
  }
  guardWebContents(contents as unknown as WebContents, options)
})

const click = (): void => void contents.emit('input-event', fakeEvent(), { type: 'mouseUp' })
// The handler decides synchronously: `shell.openExternal` is called before it returns.
const openWindow = (url: string): string => contents.windowOpenHandler!({ url }).action

describe('navigation', () => {
  it('blocks navigation, frame navigation and redirects away from app://chainscope', () => {
    for (const event of ['will-navigate', 'will-frame-navigate', 'will-redirect']) {
      for (const url of [
        'https://evil.example/',
        'http://127.0.0.1:8545/',
        'file:///etc/passwd',
        'app://other/index.html',
        'javascript:alert(1)',
        'chainscope://address/0x0',
      ]) {
        const e = fakeEvent({ url })
        contents.emit(event, e)
        expect(e.defaultPrevented, `${event} ${url}`).toBe(true)
      }
    }
  })

  it("lets the app's own pages load", () => {
    const e = fakeEvent({ url: 'app://chainscope/index.html' })
    contents.emit('will-navigate', e)
    expect(e.defaultPrevented).toBe(false)
  })

  it('never attaches a <webview>', () => {
    const e = fakeEvent()
    contents.emit('will-attach-webview', e, {}, {})
    expect(e.defaultPrevented).toBe(true)
  })
})

describe('window.open', () => {
  it('always denies a new window', () => {
    click()
    expect(openWindow('https://explorer.example/tx/0x1')).toBe('deny')
    expect(openWindow('app://chainscope/index.html')).toBe('deny')
  })

  it('opens an https link in the OS browser right after a click', () => {
    click()
    openWindow('https://explorer.example/tx/0x1')
    expect(shell.openExternal).toHaveBeenCalledExactlyOnceWith('https://explorer.example/tx/0x1')
  })

  it('opens a link after a key press (keyboard users)', () => {
    contents.emit('input-event', fakeEvent(), { type: 'rawKeyDown' })
    openWindow('https://explorer.example/a')
    expect(shell.openExternal).toHaveBeenCalledTimes(1)
  })

  it('refuses a link opened without a click (a script, a timer)', () => {
    openWindow('https://explorer.example/tx/0x1')
    contents.emit('input-event', fakeEvent(), { type: 'mouseMove' })
    contents.emit('input-event', fakeEvent(), { type: 'mouseWheel' })
    openWindow('https://explorer.example/tx/0x2')
    expect(shell.openExternal).not.toHaveBeenCalled()
  })

  it('refuses a link opened too long after the click', () => {
    click()
    clock += 2001
    openWindow('https://explorer.example/late')
    expect(shell.openExternal).not.toHaveBeenCalled()
  })

  it('opens one link per click', () => {
    click()
    openWindow('https://explorer.example/1')
    openWindow('https://explorer.example/2')
    expect(shell.openExternal).toHaveBeenCalledExactlyOnceWith('https://explorer.example/1')
  })

  it('refuses every non-https link even right after a click', () => {
    for (const url of [
      'http://explorer.example/',
      'file:///etc/passwd',
      'smb://host/share',
      'javascript:alert(1)',
      'chainscope://address/0x0',
      'ms-msdt:/id',
      'https://user:pw@explorer.example/',
      'not a url',
    ]) {
      click()
      openWindow(url)
    }
    expect(shell.openExternal).not.toHaveBeenCalled()
  })

  it('a click in one window does not let another window open links', () => {
    const other = new FakeWebContents()
    guardWebContents(other as unknown as WebContents, options)
    click()
    other.windowOpenHandler!({ url: 'https://explorer.example/' })
    expect(shell.openExternal).not.toHaveBeenCalled()
  })

  it('reports a failure of the OS browser without throwing', async () => {
    click()
    const failing = { ...options, openExternal: vi.fn(async () => Promise.reject(new Error('no handler'))) }
    expect(await handleWindowOpen(contents.id, { url: 'https://explorer.example/' }, failing)).toBe('refused')
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('no handler'))
  })

  it('logs only the scheme and host of a refused link', async () => {
    await handleWindowOpen(contents.id, { url: 'https://explorer.example/path?api_key=SECRETKEY123' }, options)
    const lines = vi
      .mocked(log.warn)
      .mock.calls.map((c) => c[0])
      .join('\n')
    expect(lines).toContain('https://explorer.example')
    expect(lines).not.toContain('SECRETKEY123')
  })

  it('forgets gestures of destroyed web contents', () => {
    click()
    contents.emit('destroyed')
    expect(gestures.consume(contents.id)).toBe(false)
  })
})

describe('checkExternalUrl', () => {
  it('accepts plain https links and normalises them', () => {
    expect(checkExternalUrl('https://Explorer.Example/tx/0x1')).toEqual({
      ok: true,
      url: 'https://explorer.example/tx/0x1',
    })
  })

  it('names the reason for a refusal', () => {
    expect(checkExternalUrl('http://x.example/')).toEqual({
      ok: false,
      reason: 'only https links open in the browser, not http:',
    })
    expect(checkExternalUrl('')).toMatchObject({ ok: false, reason: 'empty link' })
    expect(checkExternalUrl(`https://x.example/${'a'.repeat(3000)}`)).toMatchObject({ ok: false })
    expect(checkExternalUrl('https://u:p@x.example/')).toMatchObject({ ok: false, reason: 'link carries credentials' })
  })
})

describe('a pivot link opened in a new window (Ctrl+click, middle-click)', () => {
  const route = 'app://chainscope/index.html#/tx/alpha/0x' + 'ab'.repeat(32)

  it("opens the app's own hash route in a new, hardened app window right after a click", () => {
    click()
    expect(openWindow(route)).toBe('deny')
    expect(BrowserWindow.windows).toHaveLength(1)
    const window = BrowserWindow.windows[0]!
    expect(window.loadURL).toHaveBeenCalledExactlyOnceWith(route)
    const prefs = window.options.webPreferences as Record<string, unknown>
    expect(prefs).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    })
    expect(shell.openExternal).not.toHaveBeenCalled()
  })

  it('refuses an app route opened without a click (a script, a timer)', () => {
    expect(openWindow(route)).toBe('deny')
    expect(BrowserWindow.windows).toHaveLength(0)
  })

  it('refuses every page of the app that is not one of its hash routes, and foreign look-alikes', () => {
    for (const url of [
      'app://chainscope/index.html',
      'app://chainscope/index.html?x=1#/tx/alpha/0x1',
      'app://chainscope/other.html#/tx/alpha/0x1',
      'app://chainscope/index.html#tx',
      'app://other/index.html#/tx/alpha/0x1',
      'app://user@chainscope/index.html#/tx/alpha/0x1',
      'app://chainscope:8080/index.html#/tx/alpha/0x1',
      'file:///index.html#/tx/alpha/0x1',
    ]) {
      click()
      expect(openWindow(url)).toBe('deny')
    }
    expect(BrowserWindow.windows).toHaveLength(0)
    expect(shell.openExternal).not.toHaveBeenCalled()
  })

  it('createRouteWindow itself refuses a URL that is not an app route', () => {
    expect(createRouteWindow({ preloadPath: '/app/preload.cjs', url: 'https://evil.example/#/x', log })).toBeNull()
    expect(BrowserWindow.windows).toHaveLength(0)
  })
})

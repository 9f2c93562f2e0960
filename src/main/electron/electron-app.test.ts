import type { MenuItemConstructorOptions } from 'electron'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { IPC_CHANNELS } from '@shared/bridge/contract'
import { createCore, type Core } from '../core/app-core'
import { runElectronApp, type ElectronApp } from './electron-app'
import {
  app,
  BrowserWindow,
  dialog,
  fakeEvent,
  ipcMain,
  Menu,
  protocol,
  resetFakeElectron,
  session,
} from './testing/fake-electron'

vi.mock('electron', () => import('./testing/fake-electron'))
// The real core, watched: the test needs the instance the app created.
vi.mock('../core/app-core', async (importOriginal) => {
  const real = await importOriginal<typeof import('../core/app-core')>()
  return { ...real, createCore: vi.fn(real.createCore) }
})

const ADDR = '0x52908400098527886E0F7030069857D2E4169EE7'
const savedArgv = process.argv
let dataDir: string
let running: ElectronApp | null = null

beforeEach(() => {
  resetFakeElectron()
  dataDir = mkdtempSync(join(tmpdir(), 'chainscope-electron-'))
  app.switches.set('user-data-dir', dataDir)
  process.argv = ['/opt/Chainscope/chainscope']
  running = null
})
afterEach(async () => {
  // Quit, so core and its timers are disposed before the next test.
  app.emit('will-quit', fakeEvent())
  await running?.shutdown()
  process.argv = savedArgv
  rmSync(dataDir, { recursive: true, force: true })
})

async function start(): Promise<{ window: BrowserWindow; core: Core }> {
  const starting = runElectronApp()
  app.becomeReady()
  running = await starting
  const core = (await vi.mocked(createCore).mock.results.at(-1)!.value) as Core
  return { window: BrowserWindow.windows.at(-1)!, core }
}

const sentEvents = (window: BrowserWindow): unknown[][] =>
  window.webContents.send.mock.calls.filter((c) => c[0] === IPC_CHANNELS.event).map((c) => c.slice(1))

describe('startup', () => {
  it('chooses the data folder and takes the lock keyed by it, then sandboxes and registers app:// before ready', async () => {
    const starting = runElectronApp()
    expect(app.setPath).toHaveBeenCalledWith('userData', dataDir)
    expect(vi.mocked(app.setPath).mock.invocationCallOrder[0]).toBeLessThan(
      vi.mocked(app.requestSingleInstanceLock).mock.invocationCallOrder[0]!,
    )
    expect(app.enableSandbox).toHaveBeenCalled()
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalled()
    expect(protocol.handle).not.toHaveBeenCalled()
    expect(BrowserWindow.windows).toHaveLength(0)
    app.becomeReady()
    running = await starting
  })

  it('after ready: denies permissions, serves app://, wires IPC, sets the menu and opens one guarded window', async () => {
    const { window } = await start()
    expect(session.defaultSession.permissionRequestHandler).not.toBeNull()
    expect(protocol.handle).toHaveBeenCalledWith('app', expect.any(Function))
    expect(ipcMain.handle).toHaveBeenCalledWith(IPC_CHANNELS.invoke, expect.any(Function))
    expect(Menu.setApplicationMenu).toHaveBeenCalledTimes(1)
    expect(BrowserWindow.windows).toHaveLength(1)
    expect(window.loadURL).toHaveBeenCalledWith('app://chainscope/index.html')
    const navigation = fakeEvent({ url: 'https://evil.example/' })
    window.webContents.emit('will-navigate', navigation)
    expect(navigation.defaultPrevented).toBe(true)
    expect(window.webContents.windowOpenHandler).not.toBeNull()
  })

  it('gives core the Electron host, the data folder and the utility-process sandbox launcher', async () => {
    await start()
    expect(createCore).toHaveBeenCalledWith(
      expect.objectContaining({
        host: 'electron',
        dataDir,
        sandboxLauncher: expect.objectContaining({ launch: expect.any(Function) }),
      }),
    )
  })

  it('does not claim chainscope:// links when not installed', async () => {
    await start()
    expect(app.setAsDefaultProtocolClient).not.toHaveBeenCalled()
  })
})

describe('opening addresses', () => {
  it('opens the address from the command line once the page has loaded', async () => {
    process.argv = ['/opt/Chainscope/chainscope', ADDR.toLowerCase(), '--network', 'beta']
    const { window } = await start()
    expect(sentEvents(window)).toEqual([])
    window.webContents.finishLoad()
    expect(sentEvents(window)).toEqual([['open.address', { address: ADDR, network: 'beta' }]])
  })

  it('a second launch focuses the window and passes its address on', async () => {
    const { window } = await start()
    window.webContents.finishLoad()
    window.minimize()
    app.emit('second-instance', fakeEvent(), [], '/', {
      chainscopeArgs: [`chainscope://address/${ADDR}?network=alpha`],
    })
    expect(window.isMinimized()).toBe(false)
    expect(window.focused).toBe(true)
    expect(sentEvents(window)).toEqual([['open.address', { address: ADDR, network: 'alpha' }]])
  })

  it('macOS open-url links go the same way', async () => {
    const { window } = await start()
    const event = fakeEvent()
    app.emit('open-url', event, `chainscope://address/${ADDR}`)
    expect(event.defaultPrevented).toBe(true)
    window.webContents.finishLoad()
    expect(sentEvents(window)).toEqual([['open.address', { address: ADDR, network: null }]])
  })

  it('tells the user what was wrong with a bad argument, and opens nothing', async () => {
    process.argv = ['/opt/Chainscope/chainscope', '0x1234']
    const { window } = await start()
    window.webContents.finishLoad()
    expect(sentEvents(window)).toEqual([])
    expect(dialog.showMessageBox).toHaveBeenCalledWith(
      window,
      expect.objectContaining({
        message: 'Chainscope could not open that.',
        detail: expect.stringContaining('40 hex characters'),
      }),
    )
  })

  it('menu actions reach the renderer as bridge events', async () => {
    const { window } = await start()
    const template = vi.mocked(Menu.buildFromTemplate).mock.calls[0]![0] as MenuItemConstructorOptions[]
    const file = template.find((m) => m.label === 'File')!.submenu as MenuItemConstructorOptions[]
    ;(file.find((i) => i.label === 'RPC Console')!.click as () => void)()
    expect(sentEvents(window)).toEqual([['open.view', { view: 'rpc' }]])
  })
})

describe('single instance', () => {
  it('a second instance quits at once: no core, no window', async () => {
    app.lockAvailable = false
    expect(await runElectronApp()).toBeNull()
    expect(app.quit).toHaveBeenCalled()
    expect(createCore).not.toHaveBeenCalled()
    expect(BrowserWindow.windows).toHaveLength(0)
    expect(protocol.handle).not.toHaveBeenCalled()
  })
})

describe('visibility and shutdown', () => {
  it('tells core whether the window can be seen', async () => {
    const { window, core } = await start()
    const setVisible = vi.spyOn(core, 'setVisible')
    window.emit('ready-to-show')
    window.minimize()
    window.restore()
    expect(setVisible.mock.calls.map((c) => c[0])).toEqual([true, false, true])
  })

  it('quits when the last window closes, disposing core before the app ends', async () => {
    const { window, core } = await start()
    const dispose = vi.spyOn(core, 'dispose')
    window.close()
    app.emit('window-all-closed')
    expect(app.quit).toHaveBeenCalledTimes(1)
    await running!.shutdown()
    // will-quit waited for the shutdown, then quit for real.
    await Promise.resolve()
    expect(app.quit).toHaveBeenCalledTimes(2)
    expect(dispose).toHaveBeenCalledTimes(1)
    expect(ipcMain.removeHandler).toHaveBeenCalledWith(IPC_CHANNELS.invoke)
  })
})

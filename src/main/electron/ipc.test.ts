import { beforeEach, describe, expect, it, vi } from 'vitest'
import { IPC_CHANNELS } from '@shared/bridge/contract'
import { BridgeHost } from '../core/bridge/bridge-host'
import type { Logger } from '../core/util/logger'
import { isAppSenderFrame, registerBridgeIpc } from './ipc'
import { BrowserWindow, FakeWebContents, FakeWebFrame, ipcMain, resetFakeElectron } from './testing/fake-electron'

vi.mock('electron', () => import('./testing/fake-electron'))

const log: Logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }
let bridge: BridgeHost
let dispose: () => void

type Invoke = (event: unknown, name: unknown, input: unknown) => Promise<unknown>

beforeEach(() => {
  resetFakeElectron()
  bridge = new BridgeHost({
    'app.info': () => ({ name: 'Chainscope', version: '1', host: 'electron', platform: 'linux' }),
  })
  dispose = registerBridgeIpc({ bridge, log })
})

const invokeHandler = (): Invoke => vi.mocked(ipcMain.handle).mock.calls[0]![1] as Invoke

describe('IPC registration', () => {
  it('registers exactly the contract: one invoke handler, no other channel', () => {
    expect(ipcMain.handle).toHaveBeenCalledTimes(1)
    expect(vi.mocked(ipcMain.handle).mock.calls[0]![0]).toBe(IPC_CHANNELS.invoke)
    expect(ipcMain.on).not.toHaveBeenCalled()
    expect(ipcMain.once).not.toHaveBeenCalled()
  })

  it('removes its handler and its event subscription when disposed', () => {
    const window = new BrowserWindow()
    dispose()
    expect(ipcMain.removeHandler).toHaveBeenCalledWith(IPC_CHANNELS.invoke)
    bridge.emit('open.view', { view: 'settings' })
    expect(window.webContents.send).not.toHaveBeenCalled()
  })
})

describe('sender checks', () => {
  it("answers calls from the app's own top frame", async () => {
    const window = new BrowserWindow()
    const result = await invokeHandler()(
      { sender: window.webContents, senderFrame: window.webContents.mainFrame },
      'app.info',
      {},
    )
    expect(result).toEqual({
      ok: true,
      value: { name: 'Chainscope', version: '1', host: 'electron', platform: 'linux' },
    })
  })

  it('refuses an iframe, a foreign page, a gone frame and a web contents without a window', async () => {
    const window = new BrowserWindow()
    const top = window.webContents.mainFrame
    const senders = [
      { sender: window.webContents, senderFrame: new FakeWebFrame('app://chainscope/index.html', top) },
      { sender: window.webContents, senderFrame: new FakeWebFrame('https://evil.example/') },
      { sender: window.webContents, senderFrame: new FakeWebFrame('file:///tmp/x.html') },
      { sender: window.webContents, senderFrame: new FakeWebFrame('app://other/index.html') },
      { sender: window.webContents, senderFrame: null },
      { sender: new FakeWebContents(), senderFrame: new FakeWebFrame('app://chainscope/index.html') },
    ]
    for (const event of senders) {
      const result = await invokeHandler()(event, 'app.info', {})
      expect(result, JSON.stringify(event.senderFrame?.url)).toEqual({
        ok: false,
        error: {
          kind: 'invalid-input',
          message: "Only the Chainscope window's own page may use the bridge.",
          field: 'sender',
        },
      })
    }
  })

  it('treats a disposed frame (throws on access) as not the app', () => {
    const disposed = {
      get url(): string {
        throw new Error('Render frame was disposed')
      },
      parent: null,
    }
    expect(isAppSenderFrame(disposed as never)).toBe(false)
  })

  it('passes bad input to the bridge, which answers a typed error', async () => {
    const window = new BrowserWindow()
    const result = await invokeHandler()(
      { sender: window.webContents, senderFrame: window.webContents.mainFrame },
      'no.such.call',
      {},
    )
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid-input', field: 'name' } })
  })
})

describe('events', () => {
  it("sends bridge events to windows showing the app's page only", () => {
    const app = new BrowserWindow()
    const strayed = new BrowserWindow()
    strayed.webContents.mainFrame.url = 'https://evil.example/'
    const closed = new BrowserWindow()
    closed.destroyed = true
    bridge.emit('open.address', { address: '0x52908400098527886E0F7030069857D2E4169EE7', network: 'alpha' })
    expect(app.webContents.send).toHaveBeenCalledExactlyOnceWith(IPC_CHANNELS.event, 'open.address', {
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      network: 'alpha',
    })
    expect(strayed.webContents.send).not.toHaveBeenCalled()
    expect(closed.webContents.send).not.toHaveBeenCalled()
  })
})

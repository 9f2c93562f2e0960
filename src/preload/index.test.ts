import { beforeAll, describe, expect, it, vi } from 'vitest'
import { BRIDGE_GLOBAL, IPC_CHANNELS, type ChainscopeBridge } from '@shared/bridge/contract'

type Listener = (...args: unknown[]) => void

// The Electron stand-in for the preload: just contextBridge and the ipcRenderer calls it uses.
const electron = vi.hoisted(() => {
  const listeners = new Map<string, Set<Listener>>()
  const ipcRenderer = {
    invoke: vi.fn(async (..._args: unknown[]) => ({ ok: true, value: 'answer' })),
    on(channel: string, listener: Listener) {
      if (!listeners.has(channel)) listeners.set(channel, new Set())
      listeners.get(channel)!.add(listener)
      return ipcRenderer
    },
    removeListener(channel: string, listener: Listener) {
      listeners.get(channel)?.delete(listener)
      return ipcRenderer
    },
    emit(channel: string, ...args: unknown[]) {
      for (const listener of listeners.get(channel) ?? []) listener(...args)
    },
    listenerCount: (channel: string) => listeners.get(channel)?.size ?? 0,
  }
  return { contextBridge: { exposeInMainWorld: vi.fn() }, ipcRenderer }
})
vi.mock('electron', () => electron)

let api: ChainscopeBridge

beforeAll(async () => {
  await import('./index')
  expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1)
  const [name, exposed] = electron.contextBridge.exposeInMainWorld.mock.calls[0]!
  expect(name).toBe(BRIDGE_GLOBAL)
  api = exposed as ChainscopeBridge
})

const ipc = electron.ipcRenderer

describe('preload', () => {
  it('exposes exactly invoke and on: no ipcRenderer, no other key', () => {
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on'])
    expect(typeof api.invoke).toBe('function')
    expect(typeof api.on).toBe('function')
    expect(Object.values(api)).not.toContain(electron.ipcRenderer)
  })

  it('invoke sends the call on the one invoke channel and returns main’s answer', async () => {
    await expect(api.invoke('app.info', {})).resolves.toEqual({ ok: true, value: 'answer' })
    expect(ipc.invoke).toHaveBeenLastCalledWith(IPC_CHANNELS.invoke, 'app.info', {})
  })

  it('invoke refuses a non-string call name without reaching main', async () => {
    ipc.invoke.mockClear()
    await expect(api.invoke(42 as never, {} as never)).resolves.toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'name' },
    })
    expect(ipc.invoke).not.toHaveBeenCalled()
  })

  it('on delivers only the named event, without the IPC event object, until unsubscribed', () => {
    const listener = vi.fn()
    const off = api.on('open.view', listener)
    ipc.emit(IPC_CHANNELS.event, { sender: 'ipc-event' }, 'open.view', { view: 'rpc' })
    ipc.emit(IPC_CHANNELS.event, { sender: 'ipc-event' }, 'height', { network: 'alpha' })
    expect(listener).toHaveBeenCalledExactlyOnceWith({ view: 'rpc' })
    off()
    ipc.emit(IPC_CHANNELS.event, {}, 'open.view', { view: 'settings' })
    expect(listener).toHaveBeenCalledTimes(1)
    expect(ipc.listenerCount(IPC_CHANNELS.event)).toBe(0)
  })

  it('on ignores unknown events and non-function listeners', () => {
    expect(api.on('no.such.event' as never, vi.fn())).toBeTypeOf('function')
    expect(api.on('height', 'nope' as never)).toBeTypeOf('function')
    expect(ipc.listenerCount(IPC_CHANNELS.event)).toBe(0)
  })
})

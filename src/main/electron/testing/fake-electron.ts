/**
 * A stand-in for the `electron` module in unit tests, where the Electron runtime is missing.
 * Tests use it through `vi.mock('electron', () => import('./testing/fake-electron'))`. It is
 * as small as the glue needs: event emitters for app, windows, web contents, sessions and the
 * power monitor, and `vi.fn()` spies that record what the glue asked Electron to do.
 */
import { EventEmitter } from 'node:events'
import { PassThrough } from 'node:stream'
import { vi } from 'vitest'

/** An Electron-style event: `preventDefault` and, for navigation events, the target URL. */
export function fakeEvent<T extends object>(
  fields: T = {} as T,
): T & { preventDefault: () => void; defaultPrevented: boolean } {
  const event = {
    ...fields,
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true
    },
  }
  return event
}

let nextId = 1

export class FakeWebFrame {
  constructor(
    public url: string,
    public parent: FakeWebFrame | null = null,
  ) {}
}

export class FakeWebContents extends EventEmitter {
  readonly id = nextId++
  readonly send = vi.fn()
  mainFrame = new FakeWebFrame('app://chainscope/index.html')
  loading = true
  windowOpenHandler: ((details: { url: string }) => { action: 'allow' | 'deny' }) | null = null
  readonly printToPDF = vi.fn(async (_options: Record<string, unknown>) => new Uint8Array([0x25, 0x50, 0x44, 0x46]))
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'allow' | 'deny' }): void {
    this.windowOpenHandler = handler
  }
  isLoading(): boolean {
    return this.loading
  }
  getURL(): string {
    return this.mainFrame.url
  }
  /** Simulates the page finishing its load. */
  finishLoad(): void {
    this.loading = false
    this.emit('did-finish-load')
  }
}

export class BrowserWindow extends EventEmitter {
  static windows: BrowserWindow[] = []
  static getAllWindows(): BrowserWindow[] {
    return BrowserWindow.windows.filter((w) => !w.destroyed)
  }
  static fromWebContents(contents: unknown): BrowserWindow | null {
    return BrowserWindow.windows.find((w) => w.webContents === contents && !w.destroyed) ?? null
  }

  readonly webContents = new FakeWebContents()
  readonly options: Record<string, unknown>
  visible = false
  minimized = false
  maximized = false
  destroyed = false
  focused = false
  bounds = { x: 0, y: 0, width: 1280, height: 800 }
  readonly loadURL = vi.fn(async (url: string) => {
    this.webContents.mainFrame.url = url
  })

  constructor(options: Record<string, unknown> = {}) {
    super()
    this.options = options
    BrowserWindow.windows.push(this)
    app.emit('web-contents-created', fakeEvent(), this.webContents)
  }
  isVisible(): boolean {
    return this.visible
  }
  isMinimized(): boolean {
    return this.minimized
  }
  isMaximized(): boolean {
    return this.maximized
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  getNormalBounds(): { x: number; y: number; width: number; height: number } {
    return { ...this.bounds }
  }
  show(): void {
    this.visible = true
    this.emit('show')
  }
  hide(): void {
    this.visible = false
    this.emit('hide')
  }
  minimize(): void {
    this.minimized = true
    this.emit('minimize')
  }
  restore(): void {
    this.minimized = false
    this.emit('restore')
  }
  maximize(): void {
    this.maximized = true
    this.emit('maximize')
  }
  focus(): void {
    this.focused = true
  }
  destroy(): void {
    this.destroyed = true
    this.visible = false
    this.emit('closed')
  }
  close(): void {
    this.emit('close', fakeEvent())
    this.destroyed = true
    this.visible = false
    this.emit('closed')
  }
}

class FakeApp extends EventEmitter {
  isPackaged = false
  lockAvailable = true
  readonly paths = new Map<string, string>([['appData', '/tmp/fake-app-data']])
  readonly switches = new Map<string, string>()
  readonly requestSingleInstanceLock = vi.fn((_data?: Record<string, unknown>) => this.lockAvailable)
  readonly quit = vi.fn(() => {
    this.emit('will-quit', fakeEvent())
  })
  readonly exit = vi.fn()
  readonly enableSandbox = vi.fn()
  readonly setAsDefaultProtocolClient = vi.fn(() => true)
  readonly setAppUserModelId = vi.fn()
  readonly commandLine = { getSwitchValue: (name: string) => this.switches.get(name) ?? '' }
  readonly setPath = vi.fn((name: string, value: string) => {
    this.paths.set(name, value)
  })
  #ready = deferred()
  getPath(name: string): string {
    return this.paths.get(name) ?? `/tmp/fake-${name}`
  }
  getVersion(): string {
    return '0.0.0-test'
  }
  whenReady(): Promise<void> {
    return this.#ready.promise
  }
  /** Simulates Electron's `ready`. */
  becomeReady(): void {
    this.#ready.resolve()
  }
  resetReady(): void {
    this.#ready = deferred()
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

export const app = new FakeApp()

type BeforeRequest = (details: { url: string }, callback: (response: { cancel: boolean }) => void) => void

export class FakeSession extends EventEmitter {
  beforeRequest: BeforeRequest | null = null
  readonly webRequest = {
    onBeforeRequest: vi.fn((listener: BeforeRequest) => {
      this.beforeRequest = listener
    }),
  }
  readonly enableNetworkEmulation = vi.fn()
  permissionRequestHandler: ((...args: unknown[]) => void) | null = null
  permissionCheckHandler: ((...args: unknown[]) => boolean) | null = null
  devicePermissionHandler: ((...args: unknown[]) => boolean) | null = null
  setPermissionRequestHandler(handler: (...args: unknown[]) => void): void {
    this.permissionRequestHandler = handler
  }
  setPermissionCheckHandler(handler: (...args: unknown[]) => boolean): void {
    this.permissionCheckHandler = handler
  }
  setDevicePermissionHandler(handler: (...args: unknown[]) => boolean): void {
    this.devicePermissionHandler = handler
  }
}

export const session = {
  defaultSession: new FakeSession(),
  partitions: new Map<string, FakeSession>(),
  fromPartition: vi.fn((name: string): FakeSession => {
    const known = session.partitions.get(name) ?? new FakeSession()
    session.partitions.set(name, known)
    return known
  }),
}
export const protocol = { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() }
export const ipcMain = { handle: vi.fn(), removeHandler: vi.fn(), on: vi.fn(), once: vi.fn() }
export const shell = { openExternal: vi.fn(async (_url: string) => {}) }
export const screen = { getAllDisplays: vi.fn(() => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }]) }
export const Menu = { buildFromTemplate: vi.fn((template: unknown[]) => ({ template })), setApplicationMenu: vi.fn() }
export const dialog = {
  showMessageBox: vi.fn(async () => ({ response: 0 })),
  showErrorBox: vi.fn(),
  showSaveDialog: vi.fn(async (..._args: unknown[]): Promise<{ canceled: boolean; filePath?: string }> => ({
    canceled: true,
  })),
}
export const clipboard = { readText: vi.fn(async () => '') }
export const powerMonitor = new EventEmitter()

export class FakeUtilityProcess extends EventEmitter {
  readonly stdout = new PassThrough()
  readonly stderr = new PassThrough()
  readonly pid = 4242
  killed = false
  readonly kill = vi.fn(() => {
    this.killed = true
    return true
  })
  /** Simulates the process ending. */
  exit(code: number): void {
    this.emit('exit', code)
  }
}
export const utilityProcess = { fork: vi.fn((..._args: unknown[]) => new FakeUtilityProcess()) }

/** Records what was shown; `supported` stands for the platform's answer to isSupported(). */
export class Notification extends EventEmitter {
  static supported = true
  static shown: Notification[] = []
  static isSupported = vi.fn(() => Notification.supported)
  constructor(readonly options: { title?: string; body?: string; silent?: boolean }) {
    super()
  }
  show = vi.fn(() => {
    Notification.shown.push(this)
  })
}

// Preload side.
export const contextBridge = { exposeInMainWorld: vi.fn() }
export const ipcRenderer = Object.assign(new EventEmitter(), { invoke: vi.fn(async () => ({ ok: true, value: null })) })

/** Puts the fake back to its first state (call in `beforeEach`). */
export function resetFakeElectron(): void {
  BrowserWindow.windows = []
  app.removeAllListeners()
  app.isPackaged = false
  app.lockAvailable = true
  app.switches.clear()
  app.resetReady()
  session.defaultSession = new FakeSession()
  session.partitions.clear()
  powerMonitor.removeAllListeners()
  ipcRenderer.removeAllListeners()
  Notification.supported = true
  Notification.shown = []
  vi.clearAllMocks()
}

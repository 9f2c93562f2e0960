import { app, BrowserWindow, ipcMain } from 'electron'
import { join } from 'node:path'
import { IPC_CHANNELS } from '../../shared/bridge/contract'
import { createCore } from '../core/app-core'
import { createLogger, Redactor } from '../core/logger'

/** Electron glue only: windows, security and IPC wiring. Everything else lives in core/. */
async function start(): Promise<void> {
  await app.whenReady()
  const dataDir = app.getPath('userData')
  const redactor = new Redactor()
  const log = createLogger(redactor, join(dataDir, 'logs', 'main.log'))
  const core = await createCore({ host: 'electron', version: app.getVersion(), platform: process.platform, dataDir, log, redactor })

  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    show: false,
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  })
  ipcMain.handle(IPC_CHANNELS.invoke, (event, name: unknown, input: unknown) => {
    if (event.sender !== win.webContents) return { ok: false, error: { kind: 'invalid-input', message: 'Unknown sender.' } }
    return core.bridge.dispatch(name, input)
  })
  core.bridge.subscribe((event, payload) => {
    if (!win.isDestroyed()) win.webContents.send(IPC_CHANNELS.event, event, payload)
  })
  win.once('ready-to-show', () => win.show())
  await win.loadFile(join(import.meta.dirname, '../renderer/index.html'))
  app.on('window-all-closed', () => {
    void core.dispose().then(() => app.quit())
  })
}

void start()

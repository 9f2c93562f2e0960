import { app, clipboard, dialog, Menu, powerMonitor, session, shell, type BrowserWindow } from 'electron'
import { join } from 'node:path'
import { errorMessage } from '@shared/guards'
import { createCore, type Core } from '../core/app-core'
import { createLogger, Redactor, type Logger } from '../core/util/logger'
import { desktopNotifier } from './notifications'
import { buildMenuTemplate } from './app-menu'
import { registerAppScheme, serveAppProtocol } from './app-protocol'
import { chooseDataDir } from './data-dir'
import { UserGestureTracker } from './external-links'
import { registerBridgeIpc } from './ipc'
import { DEEP_LINK_SCHEME, parseDeepLink, parseLaunchArgs, userArgs } from './launch-args'
import { LaunchQueue } from './launch-queue'
import { createMainWindow, createRouteWindow, revealWindow } from './main-window'
import { denyAllPermissions } from './permissions'
import { electronPdfHost } from './pdf-printer'
import { createUtilitySandboxLauncher, sandboxEnv } from './sandbox-utility'
import { SANDBOX_LIVE_DIR } from '../core/sandbox/sandbox-launcher'
import { claimSingleInstance } from './single-instance'
import { VisibilityTracker } from './visibility'
import { guardWebContents } from './web-contents-guard'
import { WindowStateStore } from './window-state'

/** Built files, next to this bundle (`out/main/index.js`). */
const here = import.meta.dirname
const PATHS = {
  preload: join(here, '../preload/index.cjs'),
  renderer: join(here, '../renderer'),
  sandbox: join(here, 'sandbox.js'),
  devSandboxState: join(here, '../../sandbox/.state'),
}

/**
 * The Electron composition root: the order matters. Before `ready`: data folder, sandboxing,
 * the privileged scheme, the single-instance lock, link handlers and the web-contents guard.
 * After: permissions, the `app://` handler, core, IPC, menu, window, visibility and shutdown.
 */
export interface ElectronApp {
  /** Stops core and the sandbox, once; `will-quit` waits for it. Resolves when done. */
  shutdown(): Promise<void>
}

export async function runElectronApp(): Promise<ElectronApp | null> {
  const data = chooseDataDir({
    switchValue: app.commandLine.getSwitchValue('user-data-dir'),
    env: process.env,
    appData: app.getPath('appData'),
    cwd: process.cwd(),
  })
  app.setPath('userData', data.dir)
  app.enableSandbox()
  registerAppScheme()
  if (process.platform === 'win32') app.setAppUserModelId('org.chainscope.app')

  const launches = new LaunchQueue()
  let mainWindow: BrowserWindow | null = null
  const args = userArgs(process.argv, process.defaultApp === true)
  const primary = claimSingleInstance({
    args,
    onSecondInstance: (secondArgs) => {
      if (mainWindow) revealWindow(mainWindow)
      launches.push(parseLaunchArgs(secondArgs))
    },
  })
  if (!primary) {
    app.quit()
    return null
  }
  launches.push(parseLaunchArgs(args))
  // macOS hands links over with `open-url`, possibly before `ready`.
  app.on('open-url', (event, url) => {
    event.preventDefault()
    launches.push(parseDeepLink(url))
  })
  // Only an installed app claims chainscope:// links; a dev or test run must not take them over.
  // The link's only effect is a validated address shown in the app (launch-args.ts), never a command.
  if (app.isPackaged) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME) // eng-disable PROTOCOL_HANDLER_JS_CHECK

  const redactor = new Redactor()
  const log = createLogger(redactor, join(data.dir, 'logs', 'main.log'))
  log.info(`data folder ${data.dir} (from ${data.source})`)
  const gestures = new UserGestureTracker()
  app.on('web-contents-created', (_event, contents) => {
    guardWebContents(contents, {
      gestures,
      log,
      // Reached only with an https URL that passed checkExternalUrl, right after the user's click (web-contents-guard.ts).
      openExternal: (url) => shell.openExternal(url), // eng-disable OPEN_EXTERNAL_JS_CHECK
      // Only the app's own hash routes reach here (appRouteUrl, checked again by createRouteWindow).
      openAppWindow: (url) => void createRouteWindow({ preloadPath: PATHS.preload, url, log }),
    })
  })

  try {
    await app.whenReady()
    return await startWindows({
      dataDir: data.dir,
      log,
      redactor,
      launches,
      setMainWindow: (w) => (mainWindow = w),
      getMainWindow: () => mainWindow,
    })
  } catch (error) {
    const message = errorMessage(error)
    log.error(`Chainscope could not start: ${message}`)
    dialog.showErrorBox('Chainscope could not start', redactor.redact(message))
    app.exit(1)
    return null
  }
}

interface StartOptions {
  dataDir: string
  log: Logger
  redactor: Redactor
  launches: LaunchQueue
  setMainWindow: (window: BrowserWindow | null) => void
  getMainWindow: () => BrowserWindow | null
}

async function startWindows(options: StartOptions): Promise<ElectronApp> {
  const { dataDir, log, redactor, launches } = options
  denyAllPermissions(session.defaultSession, log)
  serveAppProtocol({ root: PATHS.renderer })

  // Installed: chain state in the data folder, first filled from the seeded copy shipped in resources.
  // From a checkout: the repository's own cache (sandbox/.state), shared with the web host and tests.
  const sandboxes = createUtilitySandboxLauncher({
    modulePath: PATHS.sandbox,
    ...(app.isPackaged
      ? { stateDir: join(dataDir, 'sandbox'), seedStateDir: join(process.resourcesPath, 'sandbox-state') }
      : { stateDir: PATHS.devSandboxState }),
    // The sandbox's own chains, kept across its restarts: per data folder, never shared.
    liveStateDir: join(dataDir, SANDBOX_LIVE_DIR),
    log,
    redactor,
    env: sandboxEnv({
      isPackaged: app.isPackaged,
      resourcesPath: process.resourcesPath,
      platform: process.platform,
      env: process.env,
    }),
  })
  const core: Core = await createCore({
    host: 'electron',
    version: app.getVersion(),
    platform: process.platform,
    dataDir,
    log,
    redactor,
    sandboxLauncher: sandboxes,
    notify: desktopNotifier({ log, onClick: () => options.getMainWindow()?.show() }),
    pdf: electronPdfHost({ parent: options.getMainWindow, log }),
  })
  const disposeIpc = registerBridgeIpc({ bridge: core.bridge, log })
  const visibility = new VisibilityTracker({ setVisible: (visible) => core.setVisible(visible), powerMonitor })

  const notify = (message: string, detail: string): void => {
    log.warn(`${message} ${detail}`)
    const window = options.getMainWindow()
    const box = { type: 'warning' as const, title: 'Chainscope', message, detail }
    void (window ? dialog.showMessageBox(window, box) : dialog.showMessageBox(box))
  }
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate({
        platform: process.platform,
        isPackaged: app.isPackaged,
        openView: (view) => core.bridge.emit('open.view', { view }),
        openAddress: (request) => core.bridge.emit('open.address', request),
        readClipboard: () => clipboard.readText(),
        notify,
      }),
    ),
  )

  const windowState = new WindowStateStore({ dataDir, log })
  const openWindow = (): void => {
    const window = createMainWindow({ preloadPath: PATHS.preload, windowState, log })
    options.setMainWindow(window)
    visibility.watch(window)
    window.webContents.on('did-start-loading', () => launches.close())
    window.webContents.on('did-finish-load', () =>
      launches.open((request) => {
        if (request.kind === 'invalid') return notify('Chainscope could not open that.', request.message)
        revealWindow(window)
        core.bridge.emit('open.address', request.request)
      }),
    )
    window.webContents.on('render-process-gone', (_event, details) =>
      log.error(`renderer process gone: ${details.reason}`),
    )
    window.on('closed', () => {
      launches.close()
      if (options.getMainWindow() === window) options.setMainWindow(null)
    })
  }
  openWindow()

  app.on('activate', () => {
    if (options.getMainWindow() === null) openWindow()
  })
  app.on('window-all-closed', () => {
    // macOS apps stay alive without windows; `activate` opens a new one.
    if (process.platform !== 'darwin') app.quit()
  })

  let stopping: Promise<void> | null = null
  let stopped = false
  const shutdown = (): Promise<void> => {
    stopping ??= (async () => {
      visibility.dispose()
      disposeIpc()
      // The sandbox is stopped even if core's own shutdown fails or hangs.
      try {
        await withTimeout(core.dispose(), 10_000)
      } catch (error) {
        log.error(`shutdown: ${errorMessage(error)}`)
      }
      await sandboxes.stopAll()
    })()
    return stopping
  }
  app.on('will-quit', (event) => {
    if (stopped) return
    event.preventDefault()
    void shutdown().finally(() => {
      stopped = true
      app.quit()
    })
  })
  return { shutdown }
}

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<void>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

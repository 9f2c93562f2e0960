import type { AppInfo } from '@shared/bridge/contract'
import { bridgeHandlers } from './bridge/bridge-handlers'
import { BridgeHost } from './bridge/bridge-host'
import { CoreServices, type CoreServicesOptions } from './core-services'
import type { KeychainBackend } from './keys/key-store'
import type { Logger, Redactor } from './util/logger'
import type { RuntimeTuning } from './profiles/profile-runtime'
import type { SandboxLauncher } from './sandbox/sandbox-launcher'
import { systemClock, type Clock } from './util/clock'
import { acquireDataLock } from './util/data-lock'
import { createVisibility } from './util/visibility'
import { startParserWarmUp } from './service/parser-warmup'

export interface CoreOptions {
  host: 'electron' | 'web'
  version: string
  platform: string
  /** The app's data folder: settings, watchlists, snapshots, quota counts. */
  dataDir: string
  log: Logger
  /** Every secret main learns (API keys) is registered here and removed from logs and errors. */
  redactor: Redactor
  /**
   * Starts the built-in sandbox (a child process in the web host and tests, utilityProcess
   * in Electron). Without one, the sandbox profile answers that it is unavailable.
   */
  sandboxLauncher?: SandboxLauncher
  /** The keychain backend. Default: keytar, loaded on first use. */
  keychain?: () => Promise<KeychainBackend>
  /** Keychain service name. Default 'Chainscope' (tests use their own). */
  keychainService?: string
  /** Default: the system clock. */
  clock?: Clock
  /** Default: the global fetch. */
  fetch?: typeof fetch
  /** Timeouts, retries, freshness, limiter headroom. Defaults in each module. */
  tuning?: RuntimeTuning
  /** Height polling budget and pacing. Defaults in height-watcher.ts. */
  height?: CoreServicesOptions['height']
  /** Offline snapshot bounds. Default 256 MiB, 7,000 pages per address. */
  snapshots?: CoreServicesOptions['snapshots']
  /** Desktop notification when a watch check finds changes (Electron passes one; the web page uses the browser's). */
  notify?: CoreServicesOptions['notify']
  /** Prints a report to PDF (Electron); without it the call answers that it cannot. */
  pdf?: CoreServicesOptions['pdf']
}

export interface Core {
  bridge: BridgeHost
  /**
   * The host's report of whether any app window can be seen (the page reports through
   * `app.setVisible`); live polling runs only while every reporter says visible. Starts hidden.
   */
  setVisible(visible: boolean): void
  /** Stops polling and the sandbox, writes the exact quota counts, flushes snapshots. */
  dispose(): Promise<void>
  /**
   * Whether a keychain call is still running (or hung): its native thread blocks
   * `process.exit`, so the host must end by signal instead (see key-store.ts `stuck`).
   */
  keychainStuck(): boolean
}

/** The composition root of main's host-agnostic services, shared by Electron and the web host. */
export async function createCore(options: CoreOptions): Promise<Core> {
  const clock = options.clock ?? systemClock
  // Before anything reads or writes the folder: a second host on it refuses to start.
  const lock = acquireDataLock(options.dataDir, options.host)
  // The 30 s answer deadline is wall time (the system clock, faked in unit tests), not the
  // core's clock: on a simulated clock (the analyst-hour bench) real disk I/O spans sim minutes.
  const bridge = new BridgeHost({}, { log: (m) => options.log.error(m), redactor: options.redactor })
  let services: CoreServices
  try {
    services = new CoreServices({
      dataDir: options.dataDir,
      log: options.log,
      redactor: options.redactor,
      clock,
      emit: (event, payload) => bridge.emit(event, payload),
      sandboxLauncher: options.sandboxLauncher,
      keychain: options.keychain,
      keychainService: options.keychainService,
      fetch: options.fetch,
      tuning: options.tuning ?? {},
      height: options.height,
      snapshots: options.snapshots,
      notify: options.notify,
      pdf: options.pdf,
    })
  } catch (error) {
    lock.release()
    throw error
  }
  const info: AppInfo = { name: 'Chainscope', version: options.version, host: options.host, platform: options.platform }
  let disposed: Promise<void> | null = null
  const report = createVisibility((visible) => services.setVisible(visible))
  // Off the critical path: the first page of transactions is then read as fast as later ones.
  const stopWarmUp = startParserWarmUp()
  const core: Core = {
    bridge,
    setVisible: (visible) => report('host', visible),
    dispose: () => {
      stopWarmUp()
      return (disposed ??= services.dispose().finally(() => lock.release()))
    },
    keychainStuck: () => services.keys.stuck,
  }
  bridge.register(bridgeHandlers(services, info, clock, (visible) => report('page', visible)))
  return core
}

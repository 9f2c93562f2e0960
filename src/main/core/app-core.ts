import { BridgeHost, type BridgeHandlers } from './bridge-host'
import type { Logger, Redactor } from './logger'

export interface CoreOptions {
  host: 'electron' | 'web'
  version: string
  platform: string
  /** The app's data folder: settings, watchlists, snapshots, quota counts. */
  dataDir: string
  log: Logger
  /** Every secret main learns (API keys) is registered here and removed from logs and errors. */
  redactor: Redactor
}

export interface Core {
  bridge: BridgeHost
  /** Whether any app window is visible; live polling runs only while one is. */
  setVisible(visible: boolean): void
  dispose(): Promise<void>
}

/** The composition root of main's host-agnostic services, shared by Electron and the web host. */
export async function createCore(options: CoreOptions): Promise<Core> {
  const handlers: Partial<BridgeHandlers> = {
    'app.info': () => ({ name: 'Chainscope', version: options.version, host: options.host, platform: options.platform }),
    'app.setVisible': ({ visible }) => {
      core.setVisible(visible)
      return null
    },
  }
  const bridge = new BridgeHost(handlers, { log: (m) => options.log.error(m) })
  const core: Core = {
    bridge,
    setVisible: () => {},
    dispose: async () => {},
  }
  return core
}

/** The app, its settings and notices, the built-in sandbox's life, and files handed to the user. */

export interface AppInfo {
  name: string
  version: string
  host: 'electron' | 'web'
  platform: string
}

export interface Settings {
  allowRemoteIcons: boolean
}

/** Something the user should be told that is not the answer to a call (e.g. a file restored from backup). */
export interface Notice {
  id: string
  level: 'info' | 'warning' | 'error'
  message: string
  at: string
}

/**
 * The built-in sandbox's life; `progress` while it prepares (first-time seeding). A sandbox
 * stopped (by the user, or unexpectedly) stays stopped until the user starts it again.
 */
export interface SandboxStatus {
  state: 'starting' | 'ready' | 'stopped' | 'failed'
  message: string | null
  /** When it stopped (ISO time), while it stays stopped until the user starts it; null or absent otherwise. */
  stoppedAt?: string | null
  /** Stopped without being asked to (it crashed or was killed): the app says so and offers to start it. */
  unexpected?: boolean
  progress?: { stage: string; network?: string; done?: number; total?: number } | null
  /** While starting: the latest stage of each network (they prepare side by side), in first-seen order. */
  stages?: { stage: string; network?: string; done?: number; total?: number }[] | null
  /** Once ready: the sandbox's sample wallets per network and role (whale, holder, empty, …). Public data. */
  demoAddresses?: Record<string, Record<string, string>> | null
}

export interface ExportFile {
  filename: string
  mime: 'application/json' | 'text/csv'
  text: string
}

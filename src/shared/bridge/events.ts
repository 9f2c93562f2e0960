import type { AddressLabel } from '../domain/address-label'
import type { CaseFile } from '../domain/case-file'
import type { Notice, SandboxStatus } from './app-types'
import type { HeightView, LimiterState } from './budget-types'
import type { ConnectionView } from './connection-types'
import type { Note } from './lookup-types'
import type { PdfOutcome } from './report-pdf'
import type { ProfileView } from './profile-types'
import type { WatchStatus, Watchlist } from './watch-types'

/** What main pushes to the renderer unasked, and the payload of each. */

export interface BridgeEvents {
  height: HeightView
  limiter: LimiterState
  /** What real calls to each network's endpoints did, and the Work offline switch (connection-types.ts). */
  connectivity: ConnectionView
  'profiles.changed': ProfileView[]
  'watchlists.changed': Watchlist[]
  'notes.changed': Note[]
  'labels.changed': AddressLabel[]
  'cases.changed': CaseFile[]
  /** After a watch check (or mark seen): the statuses it changed. */
  'watch.changed': WatchStatus[]
  /**
   * A check reading a long gap since the last one: blocks read of the gap, per network, and
   * the way (`logs`: window by window, newest first; `balances`: the addresses' token balances)
   * and what it costs in the profile's unit, planned before anything was sent.
   */
  'watch.progress': { network: string; done: number; total: number; way: 'logs' | 'balances'; units: number }
  /** A running approvals scan: blocks read of the range it set out to read, and its eth_getLogs calls. */
  'approvals.progress': { network: string; address: string; doneBlocks: number; totalBlocks: number; calls: number }
  /** The built-in sandbox's life, while the sandbox profile is active. */
  sandbox: SandboxStatus
  notice: Notice
  /** Main asks the renderer to open an address (command line, app:// link, menu). */
  'open.address': { address: string; network: string | null }
  /** Main asks the renderer to show a screen (application menu). */
  'open.view': { view: 'watchlists' | 'settings' | 'rpc' | 'search' }
  /** How a `report.savePdf` ended. */
  'report.pdf': PdfOutcome
}
export type BridgeEventName = keyof BridgeEvents

export const bridgeEventNames = [
  'height',
  'limiter',
  'connectivity',
  'profiles.changed',
  'watchlists.changed',
  'notes.changed',
  'labels.changed',
  'cases.changed',
  'watch.changed',
  'watch.progress',
  'approvals.progress',
  'sandbox',
  'notice',
  'open.address',
  'open.view',
  'report.pdf',
] as const satisfies readonly BridgeEventName[]

export function isBridgeEventName(name: unknown): name is BridgeEventName {
  return bridgeEventNames.some((n) => n === name)
}

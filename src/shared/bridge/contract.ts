import type { CaseFile } from '../domain/case-file'
import type { z } from 'zod'
import type { BridgeResult } from './errors'
import type { LimitScope, Profile, NetworkConfig } from '../domain/profile'
import type { Billing } from '../domain/billing'
import type { bridgeCalls, prioritySchema } from './call-schemas'
import type { BalanceItem, Transaction, UnreadableItem } from '../domain/service-schemas'

/**
 * The one bridge contract (STYLE.md 2). Every call the renderer may make is listed in
 * `bridgeCalls` with the schema main validates its input against; `BridgeCallOutputs` gives
 * each call's result type; `BridgeEvents` lists what main pushes. Both transports (Electron
 * IPC through the preload, HTTP in the web host) implement `ChainscopeBridge`.
 */

export type Priority = z.infer<typeof prioritySchema>
export type BridgeCallName = keyof typeof bridgeCalls
/** What the renderer passes (defaults may be omitted). */
export type BridgeCallInput<K extends BridgeCallName> = z.input<(typeof bridgeCalls)[K]>
/** What main's handler receives after validation. */
export type BridgeCallParsed<K extends BridgeCallName> = z.output<(typeof bridgeCalls)[K]>

export interface AppInfo {
  name: string
  version: string
  host: 'electron' | 'web'
  platform: string
}

export interface ProfileView extends Profile {
  active: boolean
}

export interface KeyStatus {
  profileId: string
  set: boolean
  /** The last four characters only; the key itself never leaves main. */
  last4: string | null
  storage: 'keychain' | 'session' | 'none'
  keychainAvailable: boolean
  /** Why the keychain cannot be used, in plain words, when it cannot. */
  keychainProblem: string | null
}

/** Where a data answer came from: freshly fetched, a fresh cache, or a saved snapshot. */
export type DataSource = 'network' | 'cache' | 'snapshot'

export interface Provenance {
  source: DataSource
  fetchedAt: string
  /** Set when shown from a snapshot because the network or quota is unavailable. */
  staleReason: 'offline' | 'quota' | 'rate-limited' | null
  /**
   * Set when cached data older than its freshness window was kept because the service said the
   * address had not changed since (a revalidation, data/revalidate.ts): `fetchedAt` stays when
   * the data was fetched; this is when it was last confirmed.
   */
  checkedAt?: string
}

export interface BalancesView extends Provenance {
  network: string
  address: string
  items: BalanceItem[]
  /** Items that did not match the schema, kept raw (shown as marked rows, exported as raw rows). */
  unreadable: UnreadableItem[]
}

export interface TransactionsPage extends Provenance {
  network: string
  address: string
  cursor: string | null
  items: Transaction[]
  /** Items that did not match the schema, kept raw; `index` is their position in this page. */
  unreadable: UnreadableItem[]
  nextCursor: string | null
  /**
   * Set when main stopped following the service's cursors (a repeated cursor, one that does
   * not move back in the history, 3 pages with nothing new): why, in a sentence. `nextCursor`
   * is then null. See shared/domain/paging-guard.ts.
   */
  pagingStopped?: string
}

export interface RpcCallResult {
  result: unknown
}

export type RpcBatchItem = { ok: true; result: unknown } | { ok: false; code: number; message: string; data?: unknown }

export interface LimiterState {
  profileId: string
  tokens: number
  burst: number
  ratePerSecond: number
  queued: { user: number; prefetch: number; background: number }
  inFlight: number
  usedToday: number
  quotaPerDay: number
  leftToday: number
  /** ISO time at which the daily count resets. */
  resetsAt: string
  /** Background work stops when less than this many requests are left. */
  reserve: number
  /** The unit every count here is in (billing.ts): requests, calls, or calls plus one per batch. */
  billing?: Billing
  throttled: boolean
  /** What the profile's limits apply to (`Limits.scope`); the fields above are of one bucket. */
  scope?: LimitScope
  /**
   * Which bucket the fields describe when the scope splits them: a network name, 'data' or
   * 'rpc', or `<network>|<endpoint>`; the one with the least left today. Absent for 'key'.
   */
  scopeKey?: string
  /** ISO time until which the service told us to send nothing (at most 60 s ahead); absent when not paused. */
  pausedUntil?: string
  /**
   * The service refuses requests (2 or more 429 answers in a row, none accepted since):
   * since when and how many. Absent while it accepts them.
   */
  refusing?: { since: string; count: number }
}

export interface HeightView {
  network: string
  height: string | null
  /** True while the height is extrapolated from the learned block time. */
  estimated: boolean
  /** No observation for a long time (hidden window, offline, budget exhausted). */
  stale: boolean
  gasPriceWei: string | null
  observedAt: string | null
  blockTimeMs: number | null
}

export interface Settings {
  allowRemoteIcons: boolean
}

export interface WatchEntry {
  id: string
  /** Stored lowercase; the renderer shows it checksummed. */
  address: string
  network: string
  label: string
  note: string
  tags: string[]
  addedAt: string
  /** Other networks the same address is watched on (issue 12); absent in older files. */
  alsoNetworks?: string[]
}

export interface Watchlist {
  id: string
  name: string
  entries: WatchEntry[]
}

/** A token amount that changed on a watched address since the last look (`delta` signed, smallest unit). */
export interface WatchDelta {
  /** The token contract, or null for the network's coin. */
  token: string | null
  /** ERC-20 amounts; ERC-721 and ERC-1155 count items. */
  standard: 'coin' | 'erc20' | 'erc721' | 'erc1155'
  delta: string
  /** From the address's balances (refetched when it changed); null when unknown. */
  symbol: string | null
  decimals: number | null
}

/** What changed on one watched (network, address) since the user last looked (issue 11, item 4). */
export interface WatchStatus {
  network: string
  address: string
  /** Something changed since "mark seen" (or since the baseline). */
  unseen: boolean
  /** New transactions since the last look; `newTxsMore` when the first page was all new. */
  newTxs: number
  newTxsMore: boolean
  deltas: WatchDelta[]
  /** The last check that read this address; null before the first. */
  checkedAt: string | null
  /** The first check sets the baseline: nothing before it counts as new. */
  baseline: boolean
}

/** One run of the watch check. */
export interface WatchCheckResult {
  checkedAt: string
  addresses: number
  changed: number
  /** Requests it cost, per network and in all; `batched` false where the provider refuses batches. */
  requests: number
  networks: {
    network: string
    addresses: number
    changed: number
    requests: number
    batched: boolean
    error: string | null
  }[]
  statuses: WatchStatus[]
}

/** The periodic watch check: off by default; its budget is a share of the daily quota. */
export interface WatchSettings {
  periodic: boolean
  /** Default 0.05 (5 % of the daily quota per day of visible time). */
  budgetFraction: number
  /** Minutes between checks the budget allows now (null while it cannot tell). */
  intervalMinutes: number | null
}

/** Something the user should be told that is not the answer to a call (e.g. a file restored from backup). */
export interface Notice {
  id: string
  level: 'info' | 'warning' | 'error'
  message: string
  at: string
}

/** The built-in sandbox's life; `progress` while it prepares (first-time seeding). */
export interface SandboxStatus {
  state: 'starting' | 'ready' | 'stopped' | 'failed'
  message: string | null
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

/** A local note on a transaction (key = hash) or an address (key = address), both lowercase. */
export interface Note {
  kind: 'tx' | 'address'
  network: string
  key: string
  text: string
  updatedAt: string
}

/** One hit of the cached search (`search.query`); what the renderer needs to open it. */
export interface SearchHit {
  id: string
  kind: 'transaction' | 'address' | 'watch-entry' | 'note' | 'label'
  network: string
  /** Lowercase address to open (the page's owner for a transaction), or null. */
  address: string | null
  hash: string | null
  title: string
  detail: string
  /** A transaction hit carries the cached item, so it opens with the sandbox or service down. */
  tx?: Transaction
}

export interface SearchAnswer {
  hits: SearchHit[]
  /** Items in the index (transactions, balances, watch entries, notes). */
  cachedItems: number
}

/** Whether an address has balances and activity on one network (issue 12, "both networks"). */
export interface NetworkPresence {
  network: string
  /** Native balance in wei (decimal string), from `eth_getBalance`; null when unknown. */
  nativeWei: string | null
  /** Transactions sent (`eth_getTransactionCount`); null when unknown. */
  nonce: number | null
  /** Token kinds in the last balances answer kept for it (any age); null when none is kept. */
  tokens: number | null
  /** Transactions of it in the offline snapshots. */
  cachedTransactions: number
  source: 'cache' | 'network' | 'none'
  /** Requests this answer cost (0 from cache, 1 for the RPC batch). */
  requests: number
  fetchedAt: string | null
  error: { kind: string; message: string } | null
}

export interface BridgeCallOutputs {
  'app.info': AppInfo
  'app.setVisible': null
  /** Notices raised before the renderer listened (the 'notice' event carries later ones). */
  'app.notices': Notice[]
  'sandbox.status': SandboxStatus
  'profiles.list': ProfileView[]
  'profiles.save': ProfileView
  'profiles.remove': null
  'profiles.activate': ProfileView
  'profiles.setLimits': ProfileView
  'key.status': KeyStatus
  'key.set': KeyStatus
  'key.clear': KeyStatus
  'key.test': { latencyMs: number; height: string }
  'data.balances': BalancesView
  'data.transactions': TransactionsPage
  'rpc.call': RpcCallResult
  'rpc.batch': RpcBatchItem[]
  'work.cancel': { cancelled: number }
  'limiter.state': LimiterState
  'height.get': HeightView[]
  'settings.get': Settings
  'settings.set': Settings
  'watchlists.list': Watchlist[]
  'watchlists.create': Watchlist
  'watchlists.rename': Watchlist
  'watchlists.delete': null
  'watchlists.addEntry': Watchlist
  'watchlists.updateEntry': Watchlist
  'watchlists.removeEntry': Watchlist
  'watchlists.moveEntry': Watchlist[]
  /** `notes`: notes merged from a JSON backup that carried them (issue 12). */
  'watchlists.import': { lists: number; entries: number; notes?: number }
  'watchlists.export': ExportFile
  'notes.list': Note[]
  /** Empty text removes the note (answers null). */
  'notes.set': Note | null
  'labels.list': import('../domain/address-label').AddressLabel[]
  /** What a label CSV would add and change; nothing is written. */
  'labels.preview': import('../domain/address-label').LabelImportPreview
  /** `replace`: the changed labels the user picked; others keep their old label. */
  'labels.import': { added: number; replaced: number; kept: number }
  'labels.export': ExportFile
  'cases.list': CaseFile[]
  'cases.create': CaseFile
  'cases.rename': CaseFile
  'cases.delete': null
  'cases.addAddress': CaseFile
  'cases.updateAddress': CaseFile
  'cases.removeAddress': CaseFile
  'cases.setNotes': CaseFile
  'cases.setGraph': CaseFile
  'cases.export': ExportFile
  /** The imported case, added with a new id (an import never replaces a case). */
  'cases.import': CaseFile
  'search.query': SearchAnswer
  'analysis.networks': NetworkPresence[]
  /** What a watch check of a list (or every list) costs now, before it runs. */
  'watch.estimate': import('../domain/cost').CostEstimate & { addresses: number }
  'watch.check': WatchCheckResult
  'watch.status': WatchStatus[]
  'watch.markSeen': WatchStatus[]
  'watch.settings': WatchSettings
  'watch.setSettings': WatchSettings
  /** Approvals an address granted on a network: from loaded data, checked in one eth_call. */
  'approvals.view': import('../domain/approvals-view').ApprovalsView
  /** Reads the rest of the address's approval logs (resuming), then answers like approvals.view. */
  'approvals.scan': import('../domain/approvals-view').ApprovalsView
  'approvals.stopScan': { stopped: boolean }
  /** Whether this host turns a report into a PDF (the desktop app); else the browser's print. */
  'report.pdfAvailable': boolean
  /** Started: the outcome comes as the `report.pdf` event with this id. */
  'report.savePdf': { id: string }
  'labels.set': import('../domain/address-label').AddressLabel
  'labels.remove': null
}

export interface BridgeEvents {
  height: HeightView
  limiter: LimiterState
  connectivity: { online: boolean; reason: string | null }
  'profiles.changed': ProfileView[]
  'watchlists.changed': Watchlist[]
  'notes.changed': Note[]
  'labels.changed': import('../domain/address-label').AddressLabel[]
  'cases.changed': CaseFile[]
  /** After a watch check (or mark seen): the statuses it changed. */
  'watch.changed': WatchStatus[]
  /**
   * A check reading a long gap since the last one: blocks read of the gap, per network, and
   * the way (`logs`: window by window; `reread`: the addresses' first pages).
   */
  'watch.progress': { network: string; done: number; total: number; way: 'logs' | 'reread' }
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
  'report.pdf': import('./report-pdf').PdfOutcome
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

/** The interface both transports implement and the renderer uses. */
export interface ChainscopeBridge {
  invoke<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeResult<BridgeCallOutputs[K]>>
  on<E extends BridgeEventName>(event: E, listener: (payload: BridgeEvents[E]) => void): () => void
}

/** IPC channel names, in one place (STYLE.md 2). */
export const IPC_CHANNELS = {
  invoke: 'chainscope:invoke',
  event: 'chainscope:event',
} as const

/** The name under which the preload exposes the bridge on `window`. */
export const BRIDGE_GLOBAL = 'chainscope' as const

export type { NetworkConfig }

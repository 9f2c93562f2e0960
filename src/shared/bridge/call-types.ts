import type { z } from 'zod'
import type { AddressLabel, LabelImportPreview } from '../domain/address-label'
import type { ApprovalsView } from '../domain/approvals-view'
import type { CaseFile } from '../domain/case-file'
import type { CostEstimate } from '../domain/cost'
import type { FileCheckAnswer } from './file-check'
import type { AppInfo, ExportFile, Notice, SandboxStatus, Settings } from './app-types'
import type { HeightView, LimiterState } from './budget-types'
import type { bridgeCalls } from './call-schemas'
import type { ConnectionView } from './connection-types'
import type { BalancesView, RpcBatchItem, RpcCallResult, TransactionsPage } from './data-types'
import type { NetworkPresence, Note, SearchAnswer } from './lookup-types'
import type { KeyStatus, ProfileView } from './profile-types'
import type {
  AddressKindView,
  BlockView,
  ContractFunction,
  EntityAsOf,
  EntityCost,
  InternalTransfersView,
  ProxySlots,
  ReadContractView,
  ReceiptView,
  TracesRun,
} from './entity-types'
import type { WatchCheckResult, Watchlist, WatchSettings, WatchStatus } from './watch-types'

/** Every call's name, what the renderer passes, what main's handler receives, and what it answers. */

export type BridgeCallName = keyof typeof bridgeCalls
/** What the renderer passes (defaults may be omitted). */
export type BridgeCallInput<K extends BridgeCallName> = z.input<(typeof bridgeCalls)[K]>
/** What main's handler receives after validation. */
export type BridgeCallParsed<K extends BridgeCallName> = z.output<(typeof bridgeCalls)[K]>

export interface BridgeCallOutputs {
  'app.info': AppInfo
  'app.setVisible': null
  /** Notices raised before the renderer listened (the 'notice' event carries later ones). */
  'app.notices': Notice[]
  'sandbox.status': SandboxStatus
  /** Answers at once ('starting'); progress, readiness and failure arrive as 'sandbox' events. */
  'sandbox.start': SandboxStatus
  /** Answers once the sandbox has saved its chains and exited ('stopped'). */
  'sandbox.stop': SandboxStatus
  /** Answers once stopped and the cache is cleared, with the fresh start under way ('starting'). */
  'sandbox.reset': SandboxStatus
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
  /** What real calls to the active profile's endpoints did, and the Work offline switch. */
  'connection.get': ConnectionView
  /** Switches "Work offline" (saved): while on, nothing is sent; cached answers are served. */
  'connection.setWorkOffline': ConnectionView
  'settings.get': Settings
  'settings.set': Settings
  'watchlists.list': Watchlist[]
  'watchlists.create': Watchlist
  'watchlists.rename': Watchlist
  'watchlists.delete': null
  'watchlists.addEntry': Watchlist
  'watchlists.addEntries': Watchlist
  'watchlists.updateEntry': Watchlist
  'watchlists.removeEntry': Watchlist
  'watchlists.moveEntry': Watchlist[]
  /** `notes`: notes merged from a JSON backup that carried them. */
  'watchlists.import': { lists: number; entries: number; notes?: number }
  'watchlists.export': ExportFile
  'notes.list': Note[]
  /** Empty text removes the note (answers null). */
  'notes.set': Note | null
  'labels.list': AddressLabel[]
  /** What a label CSV would add and change; nothing is written. */
  'labels.preview': LabelImportPreview
  /** `replace`: the changed labels the user picked; others keep their old label. */
  'labels.import': { added: number; replaced: number; kept: number }
  'labels.export': ExportFile
  'cases.list': CaseFile[]
  'cases.create': CaseFile
  'cases.rename': CaseFile
  'cases.delete': null
  'cases.addAddress': CaseFile
  'cases.addAddresses': CaseFile
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
  'watch.estimate': CostEstimate & { addresses: number }
  'watch.check': WatchCheckResult
  'watch.status': WatchStatus[]
  'watch.markSeen': WatchStatus[]
  'watch.settings': WatchSettings
  'watch.setSettings': WatchSettings
  /** Approvals an address granted on a network: from loaded data, checked in one eth_call. */
  'approvals.view': ApprovalsView
  /** Reads the rest of the address's approval logs (resuming), then answers like approvals.view. */
  'approvals.scan': ApprovalsView
  'approvals.stopScan': { stopped: boolean }
  /** Whether this host turns a report into a PDF (the desktop app); else the browser's print. */
  'report.pdfAvailable': boolean
  /** Started: the outcome comes as the `report.pdf` event with this id. */
  'report.savePdf': { id: string }
  /** A file's part received; on its last part, checked for the key (refused if it holds it). */
  'files.check': FileCheckAnswer
  'labels.set': AddressLabel
  'labels.remove': null
  /** What an entity read costs now (0: cached, or the service already said); `upTo`: the most it may. */
  'entities.cost': EntityCost
  'entities.address': AddressKindView
  'entities.proxy': ProxySlots & EntityAsOf
  'entities.receipt': ReceiptView
  'entities.internal': InternalTransfersView
  'entities.block': BlockView
  /** The view functions of an ABI or a well-known interface. */
  /** What tracing these transactions costs now (0 for each already traced). */
  'entities.traceCost': EntityCost
  'entities.traceMany': TracesRun
  'entities.functions': ContractFunction[]
  'entities.readContract': ReadContractView
}

import type { Watchlist } from '@shared/bridge/contract'
import type { Address } from '@shared/domain/address'
import { MAX_SAFE_BIGINT, parseHexQuantity } from '@shared/domain/amount'
import { isUnlimited, revokeCall } from '@shared/domain/approvals'
import { isRecord } from '@shared/guards'
import { addressTopic, APPROVAL_FOR_ALL_TOPIC, APPROVAL_TOPIC } from '@shared/domain/events'
import type { ApprovalRow, ApprovalsView, ApprovalScanState } from '@shared/domain/approvals-view'
import type { Billing } from '@shared/domain/billing'
import { txHash, type BalanceItem, type Transaction } from '@shared/domain/service-schemas'
import { aggregateReads, readAggregate } from '../balances/aggregate3'
import { multicallProbe } from '../balances/balance-calls'
import type { CoinBalances } from '../balances/coin-balances'
import type { SnapshotEntry, SnapshotStore } from '../data/snapshot-store'
import type { LogProgress } from '../service/log-range'
import type { ServiceClient } from '../service/service-client'
import type { SpendMeter } from '../service/service-types'
import { AppError } from '../util/app-error'
import type { Clock } from '../util/clock'
import { provenance, staleReasonFor, type Stale } from '../data/provenance'
import { readApprovalLogs } from './approval-events'
import { foldApprovals, type GrantMark } from './approval-fold'
import { PartyBook } from './approval-parties'
import { riskOf, stateReads, type ApprovalState } from './approval-state'
import { mapLimited } from '../util/map-limited'
import { PageDigests, type DigestShelf, type PageDigest } from './page-digests'
import { fromSaved, savedDigestSchema, toSaved } from './saved-digest'
import { ScanStore, type ChainAnchor, type ScanProgress } from './scan-store'

/** What the service needs of a profile's runtime. */
export interface ApprovalsRuntime {
  profileId: string
  client: Pick<ServiceClient, 'rpcCalls' | 'logs' | 'unitsFor'>
  balances: Pick<CoinBalances, 'route' | 'noteProbe'>
}

export interface ApprovalsServiceOptions {
  /** Its digests are those the store keeps beside each page (saved-digest.ts's `approvalsDigester`). */
  snapshots: Pick<SnapshotStore, 'catalogue' | 'readEntry' | 'readDigest' | 'writeDigest'>
  scans: ScanStore
  watchlists: () => readonly Watchlist[]
  billing: (profileId: string) => Billing
  /** The chain head the app already knows (the height watcher), for the scan's cost: no request of its own. */
  headOf?: (profileId: string, network: string) => number | null
  /** A running scan's progress, after each answered range. */
  onProgress?: (progress: ScanProgressEvent) => void
  /** When the state call answered (the view's "as of"). Default: the system clock. */
  clock?: Pick<Clock, 'now'>
}

/** Digests or pages read at once: enough to keep the thread pool's four threads busy. */
const READS_AT_ONCE = 8

/** Progress of a running scan: blocks read of the range it set out to read. */
export type ScanProgressEvent = LogProgress & { network: string; address: string }

/**
 * Approvals an address has granted on one network. Found cheaply first (the calls in loaded
 * transactions and any logs a scan already found cost nothing), then checked in one
 * `eth_call`; a complete scan of `Approval` / `ApprovalForAll` logs with the address as topic 1
 * is offered with its cost and resumes where it stopped.
 */
export class ApprovalsService {
  readonly #o: ApprovalsServiceOptions
  readonly #running = new Map<string, AbortController>()
  readonly #pages = new PageDigests()

  constructor(options: ApprovalsServiceOptions) {
    this.#o = options
  }

  /**
   * The approvals as loaded data and one state call tell them; `meter` adds to a cost already
   * counted (a scan's). `cacheOnly`: no state call (no request), the rows as the loaded
   * transactions and the saved scan left them, said so in `stateError`.
   */
  async view(
    runtime: ApprovalsRuntime,
    network: string,
    address: Address,
    options: { meter?: SpendMeter; cacheOnly?: boolean } = {},
  ): Promise<ApprovalsView> {
    const meter = options.meter ?? { requests: 0, units: 0 }
    const { pages, balances, made, keptAt } = await this.#loaded(runtime.profileId, network, address)
    // Digests made from pages (written by a build that kept none) are kept once all are read:
    // in the background, while the state call is on the wire.
    for (const [entry, digest] of made) void this.#o.snapshots.writeDigest(entry, () => toSaved(digest))
    const scan = this.#o.scans.get(ScanStore.key(runtime.profileId, network, address))
    const book = new PartyBook(pages, balances, this.#o.watchlists(), network)
    const folded = scan?.approvals ?? []
    // Logs carry no time: a granting transaction that is loaded gives it for free.
    const times = new Map(pages.flatMap((p) => p.times))
    for (const c of folded)
      for (const m of [c.grant, c.last]) if (m && m.timestamp === null) m.timestamp = times.get(m.tx) ?? null
    // A token whose logs the scan read is told by them up to where it read: its calls there
    // are the same changes (and a log carries the allowance that resulted, a call may not).
    const logTokens = new Set(folded.map((c) => c.token))
    const scannedTo = scan?.scannedTo ?? -1
    const calls = pages
      .flatMap((p) => p.events)
      .filter((e) => !(logTokens.has(e.token) && e.block !== null && e.block <= scannedTo))
    const candidates = foldApprovals(calls, book.kinds(), folded)
    let states: ApprovalState[]
    let stateError: string | null = null
    // The rows are as fresh as the loaded data they come from, unless the state call answers now.
    let checkedAt: number | null = null
    let staleReason: Stale = null
    const { reads, read } = stateReads(address, candidates)
    const route = runtime.balances.route(network)
    if (candidates.length === 0) states = []
    else if (options.cacheOnly) {
      states = read(null)
      stateError =
        'The current state was not checked now (no request was sent); the approvals are shown as the loaded transactions left them.'
    } else if (route === 'single') {
      states = read(null)
      stateError = `${network}'s RPC endpoint refuses eth_call, so the approvals' current state is not known; they are shown as the transactions left them.`
    } else {
      const probe = route === null
      const call = await aggregateReads(route ?? 'deployless', reads)
      let items: Awaited<ReturnType<ApprovalsRuntime['client']['rpcCalls']>>
      try {
        items = await runtime.client.rpcCalls(network, [...(probe ? [multicallProbe] : []), call], {
          priority: 'user',
          meter,
        })
      } catch (error) {
        // The service failed (or Work offline is on): the rows as loaded data tells them, marked
        // as served for that failure, as balances are (docs/decisions/approvals-as-of.md).
        const reason = staleReasonFor(error)
        if (reason === undefined) throw error
        staleReason = reason
        items = []
      }
      if (probe && items.length) runtime.balances.noteProbe(network, items[0])
      const answer = items[probe ? 1 : 0]
      const results = readAggregate(answer, reads.length)
      states = read(results)
      if (results) checkedAt = this.#now()
      else if (staleReason)
        stateError = `The current state could not be checked now (${staleReason === 'offline-by-choice' ? 'Work offline is on' : 'the service failed'}); the approvals are shown as the loaded transactions left them.`
      else
        stateError =
          answer && !answer.ok
            ? `The state call was refused (${answer.message}); approvals are shown as the transactions left them. Refresh to ask again.`
            : 'The state call answered something other than its results; approvals are shown as the transactions left them.'
    }
    return {
      network,
      address,
      rows: states.map((s) => this.#row(s, book)).sort(byRisk),
      transactionsRead: pages.reduce((n, p) => n + p.transactions, 0),
      stateError,
      cost: meter,
      scan: this.#scanState(runtime, network, this.#o.headOf?.(runtime.profileId, network) ?? null, scan),
      ...(checkedAt !== null
        ? provenance('network', checkedAt, null)
        : provenance('cache', keptAt ?? this.#now(), staleReason)),
    }
  }

  #now(): number {
    return this.#o.clock?.now() ?? Date.now()
  }

  /**
   * Where `scan` (the saved scan, as the view read it) stands and what the rest costs now, in the
   * profile's unit (one call per window the cap allows).
   */
  #scanState(
    runtime: ApprovalsRuntime,
    network: string,
    head: number | null,
    scan: ScanProgress | null,
  ): ApprovalScanState {
    const billing = this.#o.billing(runtime.profileId)
    const from = (scan?.scannedTo ?? -1) + 1
    const cap = runtime.client.logs.learntCap(network)
    const calls = head === null ? 1 : runtime.client.logs.plannedLogCalls(from, head, network)
    // A scan also asks the head first (with the anchor block when it resumes, in one batch) and
    // checks what it found in one state call after: with the Multicall3 probe on the network's
    // first use, none where eth_call is refused (a preview counts every call it will send).
    const { client } = runtime
    const route = runtime.balances.route(network)
    const state = route === 'single' ? 0 : client.unitsFor(network, route === null ? 2 : 1)
    return {
      scannedTo: scan && scan.scannedTo >= 0 ? scan.scannedTo : null,
      head,
      remainingCalls: calls,
      remainingUnits: client.unitsFor(network, scan?.anchor ? 2 : 1) + calls * client.unitsFor(network, 1) + state,
      billing,
      logCap: cap,
      skippedLogs: scan?.skippedLogs ?? 0,
    }
  }

  /**
   * Reads the rest of the address's approval logs, window by window within the provider's cap,
   * saving how far it got after each, so a stop (or a refusal) loses nothing already paid for.
   */
  async scan(runtime: ApprovalsRuntime, network: string, address: Address): Promise<ApprovalsView> {
    const key = ScanStore.key(runtime.profileId, network, address)
    if (this.#running.has(key)) throw new AppError('invalid-input', 'A scan of this address is already running.')
    const stop = new AbortController()
    this.#running.set(key, stop)
    const meter: SpendMeter = { requests: 0, units: 0 }
    try {
      const { head, start } = await this.#resumePoint(runtime, network, key, meter)
      if (start <= head.block)
        await this.#logs(runtime, { network, address, start, head }, { signal: stop.signal, meter })
    } catch (error) {
      // A stop asked for is not a failure: what was read is saved and the view says how far.
      if (!stop.signal.aborted) throw error
    } finally {
      this.#running.delete(key)
    }
    return this.view(runtime, network, address, { meter })
  }

  /**
   * The head to scan to, and the block to start from: after the saved scan when its anchor
   * block still has the hash it had (asked in the same batch as the head), else block 0, since
   * a chain reset or reorganised under the scan may hold other logs below its `scannedTo`.
   */
  async #resumePoint(runtime: ApprovalsRuntime, network: string, key: string, meter: SpendMeter) {
    const saved = this.#o.scans.get(key)
    const calls = [blockCall('latest'), ...(saved?.anchor ? [blockCall(saved.anchor.block)] : [])]
    const [latest, anchored] = await runtime.client.rpcCalls(network, calls, { priority: 'user', meter })
    if (latest && !latest.ok)
      throw new AppError('rpc', `${network}'s RPC endpoint refused the latest block: ${latest.message}`)
    const head = latest?.ok ? blockOf(latest.result) : null
    if (!head) throw new AppError('protocol', `${network}'s RPC endpoint sent no latest block.`)
    // An anchor not asked about is no answer: what was paid for is kept for the next try.
    if (saved?.anchor && !anchored?.ok)
      throw new AppError(
        'rpc',
        `${network}'s RPC endpoint did not answer block ${saved.anchor.block}${anchored && !anchored.ok ? ` (${anchored.message})` : ''}, so the scan could not check its chain; what it read is kept. Try again.`,
      )
    const same = saved?.anchor && anchored?.ok && blockOf(anchored.result)?.hash === saved.anchor.hash
    if (saved && !same) await this.#o.scans.drop(key)
    return { head, start: same ? saved.scannedTo + 1 : 0 }
  }

  /** Reads the Approval logs of `address` from `start` to the head, saving the scan part by part. */
  #logs(
    runtime: ApprovalsRuntime,
    scan: { network: string; address: string; start: number; head: ChainAnchor },
    request: { signal: AbortSignal; meter: SpendMeter },
  ): Promise<unknown[]> {
    const { network, address, start, head } = scan
    const { signal, meter } = request
    const key = ScanStore.key(runtime.profileId, network, address)
    return runtime.client.logs.getLogsChunked(
      {
        network,
        fromBlock: start,
        toBlock: head.block,
        topics: [[APPROVAL_TOPIC, APPROVAL_FOR_ALL_TOPIC], addressTopic(address)],
      },
      {
        priority: 'user',
        signal,
        meter,
        // Saved part by part: a stop, a refusal or a crash keeps every range already read.
        onPart: async (logs, _from, to) => {
          // Only the approvals the logs leave are kept, so the file grows with them, not with the logs.
          const before = this.#o.scans.get(key)
          const read = readApprovalLogs(logs, address)
          const approvals = foldApprovals(read.events, new Map(), before?.approvals ?? [])
          const skippedLogs = (before?.skippedLogs ?? 0) + read.skipped
          await this.#o.scans.set(key, { scannedTo: to, anchor: head, approvals, skippedLogs })
          // A stop takes effect between parts, even where no request waits in a queue to be dropped.
          if (signal.aborted) throw new AppError('cancelled', 'The scan was stopped.')
        },
        onProgress: (p) => this.#o.onProgress?.({ network, address, ...p }),
      },
    )
  }

  /** Stops a running scan after the window on the wire; true when one was running. */
  stop(profileId: string, network: string, address: Address): boolean {
    const run = this.#running.get(ScanStore.key(profileId, network, address))
    run?.abort()
    return run !== undefined
  }

  async #loaded(profileId: string, network: string, address: string) {
    const { snapshots } = this.#o
    const mine = (await snapshots.catalogue(profileId)).filter((e) => e.network === network && e.address === address)
    const held = mine.find((e) => e.kind === 'balances')
    const balances = (held && ((await snapshots.readEntry(held))?.items as BalanceItem[] | undefined)) ?? []
    const made: [SnapshotEntry, PageDigest][] = []
    const shelf: DigestShelf = {
      find: async (entry) => {
        const saved = await snapshots.readDigest(entry, savedDigestSchema)
        return saved && fromSaved(saved)
      },
      keep: (entry, digest) => made.push([entry, digest]),
    }
    const pages = await mapLimited(
      mine.filter((e) => e.kind === 'page'),
      READS_AT_ONCE,
      (entry) =>
        this.#pages.get(
          entry,
          async () => ((await snapshots.readEntry(entry))?.items as Transaction[] | undefined) ?? null,
          shelf,
        ),
    )
    // The pages' file times (written when fetched): the rows are as old as the oldest.
    const stamps = mine.map((e) => e.stamp).filter((t) => Number.isFinite(t) && t > 0)
    const keptAt = stamps.length ? Math.min(...stamps) : null
    return { pages: pages.filter((p) => p !== null), balances, made, keptAt }
  }

  #row(s: ApprovalState, book: PartyBook): ApprovalRow {
    const c = s.candidate
    const token = book.token(c.token)
    const decimals = book.decimals(c.token)
    const { amount: risk, cents } =
      s.kind === 'erc20'
        ? riskOf(s.allowance, s.balance, decimals, token?.exchange_rate)
        : { amount: null, cents: null }
    const tokenId = s.kind === 'nft' ? c.tokenId : null
    return {
      kind: s.kind,
      token: {
        ...book.party(c.token),
        symbol: token?.symbol ?? null,
        decimals,
        type: token?.type ?? null,
        rate: token?.exchange_rate ?? null,
      },
      spender: book.party(c.spender),
      tokenId: tokenId === null ? null : tokenId.toString(),
      status: s.status,
      allowance: s.allowance === null ? null : s.allowance.toString(),
      grantedAmount: s.kind === 'erc20' && c.granted !== null ? c.granted.toString() : null,
      unlimited: s.allowance !== null && isUnlimited(s.allowance),
      balance: s.balance === null ? null : s.balance.toString(),
      atRisk: risk === null ? null : risk.toString(),
      atRiskCents: cents === null ? null : cents.toString(),
      granted: c.grant && mark(c.grant),
      last: mark(c.last),
      revoke: s.status === 'live' ? revokeCall(s.kind, c.token, c.spender, tokenId) : null,
    }
  }
}

const blockCall = (block: number | 'latest') => ({
  method: 'eth_getBlockByNumber',
  params: [typeof block === 'number' ? `0x${block.toString(16)}` : block, false],
})

/** A block's number and hash, or null for anything else (a block not there answers null). */
function blockOf(result: unknown): ChainAnchor | null {
  if (!isRecord(result)) return null
  const block = parseHexQuantity(result.number, MAX_SAFE_BIGINT)
  const hash = txHash.safeParse(result.hash)
  return block !== null && hash.success ? { block: Number(block), hash: hash.data.toLowerCase() } : null
}

const mark = (m: GrantMark) => ({ tx: m.tx, block: m.block, timestamp: m.timestamp, via: m.via })

const STATUS_ORDER = { live: 0, unknown: 1, spent: 2, revoked: 3 }

/** Live first, then by what is at risk (unlimited first), then newest grant. */
function byRisk(a: ApprovalRow, b: ApprovalRow): number {
  return (
    STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
    Number(b.unlimited) - Number(a.unlimited) ||
    (b.granted?.block ?? 0) - (a.granted?.block ?? 0)
  )
}

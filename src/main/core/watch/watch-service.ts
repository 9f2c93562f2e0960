import type { CostEstimate } from '@shared/domain/cost'
import { estimateCost } from '@shared/domain/cost'
import { requestUnits, type Billing } from '@shared/domain/billing'
import type { WatchCheckResult, WatchSettings, WatchStatus } from '@shared/bridge/contract'
import { errorMessage } from '@shared/guards'
import { AppError } from '../util/app-error'
import type { Logger } from '../util/logger'
import type { ProfileRuntime } from '../profiles/profile-runtime'
import type { Clock, ClockTimer } from '../util/clock'
import type { WatchlistStore } from '../watchlists/watchlist-store'
import { byNetwork, runWatchCheck, watchCost, type WatchProgress, type WatchTarget } from './watch-check'
import { markSeen, stateKey, statusOf, WatchStateStore } from './watch-state'
import type { DiskReports } from '../util/disk-error'

/** A desktop notification: Electron's `Notification` in the desktop app; the web host leaves it to the page. */
export type DesktopNotifier = (title: string, body: string) => void

export interface WatchServiceOptions {
  dataDir: string
  /** Where a failed write of the check's state is told. */
  disk?: DiskReports
  watchlists: WatchlistStore
  /** The active profile's runtime (ready: the sandbox started) and its networks, or a typed error. */
  active: () => Promise<{ runtime: ProfileRuntime; networks: string[] }>
  /** The active profile's id, or null, without starting anything. */
  activeId: () => string | null
  quotaPerDay: (profileId: string) => number
  /** How the profile's service counts (the quota's unit); default per HTTP request. */
  billing?: (profileId: string) => Billing
  clock: Clock
  onChanged: (statuses: WatchStatus[]) => void
  onHead: (profileId: string, network: string, head: number) => void
  /** The head the app knows for a network (the height watcher's), or null: lets a check plan a long gap. */
  headOf?: (profileId: string, network: string) => number | null
  /** The largest log range a profile's provider answers on a network, null while none was refused. */
  logCap?: (profileId: string, network: string) => number | null
  /** A long check's progress (blocks read of the gap since the last check). */
  onProgress?: (progress: WatchProgress) => void
  notify?: DesktopNotifier
  log: Logger
  /** Never check more often than this, whatever the budget allows. Default 60 s. */
  minIntervalMs?: number
}

/**
 * The watch check's one owner: runs it (on demand or periodically), keeps its state file,
 * answers statuses, "mark seen", and tells the user when something changed. The periodic check
 * is off by default; when on, it runs only while a window is visible, as background work (so
 * the limiter stops it at the reserve), at the interval its budget allows: `budgetFraction` of
 * the daily quota per 24 visible hours, divided by what one check costs now.
 */
export class WatchService {
  readonly #o: WatchServiceOptions
  readonly #state: WatchStateStore
  #visible = false
  #timer: ClockTimer | null = null
  #running: Promise<WatchCheckResult> | null = null
  #disposed = false

  constructor(options: WatchServiceOptions) {
    this.#o = options
    this.#state = new WatchStateStore(options.dataDir, options.disk)
  }

  get notice(): string | null {
    return this.#state.notice
  }

  /** Entries of one list, or of every list, as (network, address) pairs. */
  targets(listId?: string): WatchTarget[] {
    const lists = this.#o.watchlists.list().filter((l) => listId === undefined || l.id === listId)
    if (listId !== undefined && lists.length === 0)
      throw new AppError('not-found', 'That watchlist no longer exists.', { field: 'listId' })
    return lists.flatMap((l) => l.entries.map((e) => ({ network: e.network, address: e.address })))
  }

  async estimate(listId?: string): Promise<CostEstimate & { addresses: number }> {
    const { runtime, networks } = await this.#o.active()
    const targets = this.#known(networks, this.targets(listId))
    const cost = watchCost(runtime, this.#state.profile(runtime.profileId), targets, this.#plan(runtime.profileId))
    const limiter = runtime.limiters.state()
    return {
      ...estimateCost(cost.units, limiter, cost.max),
      addresses: [...byNetwork(targets).values()].reduce((n, a) => n + a.length, 0),
    }
  }

  /** One check now (the user's click: priority user). Concurrent calls share the run. */
  async check(listId?: string, priority: 'user' | 'background' = 'user'): Promise<WatchCheckResult> {
    if (this.#running) return this.#running
    const run = this.#run(listId, priority)
    this.#running = run
    try {
      return await run
    } finally {
      this.#running = null
    }
  }

  statuses(): WatchStatus[] {
    const id = this.#o.activeId()
    if (!id) return []
    const state = this.#state.profile(id)
    return [...byNetwork(this.targets())].flatMap(([network, addresses]) =>
      addresses.map((a) => statusOf(network, a, state.addresses[stateKey(network, a)])),
    )
  }

  /** "Mark seen" for one entry, a list, or everything: nothing is new any more. */
  markSeen(listId?: string, entryId?: string): WatchStatus[] {
    const id = this.#o.activeId()
    if (!id) return []
    const lists = this.#o.watchlists.list().filter((l) => listId === undefined || l.id === listId)
    const entries = lists.flatMap((l) => l.entries).filter((e) => entryId === undefined || e.id === entryId)
    if (entryId !== undefined && entries.length === 0)
      throw new AppError('not-found', 'That watchlist entry no longer exists.', { field: 'entryId' })
    const state = structuredClone(this.#state.profile(id))
    const changed: WatchStatus[] = []
    for (const e of entries) {
      const key = stateKey(e.network, e.address)
      const s = state.addresses[key]
      if (!s) continue
      state.addresses[key] = markSeen(s, state.networks[e.network]?.checkedBlock ?? s.lookBlock)
      changed.push(statusOf(e.network, e.address, state.addresses[key]))
    }
    this.#state.save(id, state)
    this.#o.onChanged(changed)
    return changed
  }

  settings(): WatchSettings {
    const id = this.#o.activeId()
    const state = id ? this.#state.profile(id) : null
    const interval = id ? this.intervalMs() : null
    return {
      periodic: state?.periodic ?? false,
      budgetFraction: state?.budgetFraction ?? 0.05,
      intervalMinutes: interval === null ? null : Math.round(interval / 60_000),
    }
  }

  setSettings(patch: { periodic?: boolean; budgetFraction?: number }): WatchSettings {
    const id = this.#o.activeId()
    if (!id)
      throw new AppError('not-found', 'No profile is active: start the sandbox or choose a service profile first.', {
        field: 'profile',
      })
    const state = structuredClone(this.#state.profile(id))
    if (patch.periodic !== undefined) state.periodic = patch.periodic
    if (patch.budgetFraction !== undefined) state.budgetFraction = patch.budgetFraction
    this.#state.save(id, state)
    this.#schedule()
    return this.settings()
  }

  /**
   * Between periodic checks: 24 visible hours / (quota × budget / cost of one check), where a
   * check's cost counts the changed addresses' refetches at their recent rate (assumed 10 %
   * of the addresses). Null when the budget cannot pay even one check a day.
   */
  intervalMs(): number | null {
    const id = this.#o.activeId()
    if (!id) return null
    const state = this.#state.profile(id)
    const addresses = [...byNetwork(this.targets()).values()]
    if (addresses.length === 0) return null
    // Without a runtime here (no request may start), the cost assumes one batch of the balance
    // call and the three log filters per network works, counted in the service's unit.
    const billing = this.#o.billing?.(id) ?? 'request'
    const perCheck = addresses.reduce((n, a) => n + requestUnits(billing, 4) + 2 * Math.ceil(a.length * 0.1), 0)
    const checksPerDay = (this.#o.quotaPerDay(id) * state.budgetFraction) / perCheck
    if (checksPerDay < 1) return null
    return Math.max(this.#o.minIntervalMs ?? 60_000, Math.ceil((24 * 3600_000) / checksPerDay))
  }

  setVisible(visible: boolean): void {
    this.#visible = visible
    this.#schedule()
  }

  dispose(): void {
    this.#disposed = true
    if (this.#timer !== null) this.#o.clock.clearTimeout(this.#timer)
    this.#timer = null
  }

  /** Every watch-state save made so far is decided (written or refused, within its deadline). */
  settled(): Promise<void> {
    return this.#state.settled()
  }

  /** Every watch-state write has ended, one given up at its deadline too (may wait on a hung disk). */
  writesEnded(): Promise<void> {
    return this.#state.writesEnded()
  }

  /** What a check plans a long gap with: the known head and the provider's log range. */
  #plan(id: string): {
    headOf: (network: string) => number | null
    logCap: (network: string) => number | null
  } {
    return {
      headOf: (network) => this.#o.headOf?.(id, network) ?? null,
      logCap: (network) => this.#o.logCap?.(id, network) ?? null,
    }
  }

  /** Addresses on networks the profile has (a list may hold entries of another provider's networks). */
  #known(networks: string[], targets: WatchTarget[]): WatchTarget[] {
    return targets.filter((t) => networks.includes(t.network))
  }

  async #run(listId: string | undefined, priority: 'user' | 'background'): Promise<WatchCheckResult> {
    const { runtime, networks } = await this.#o.active()
    const id = runtime.profileId
    const state = structuredClone(this.#state.profile(id))
    const before = new Set(
      Object.entries(state.addresses)
        .filter(([, s]) => s.unseen)
        .map(([k]) => k),
    )
    const result = await runWatchCheck(runtime, state, this.#known(networks, this.targets(listId)), {
      priority,
      now: () => this.#o.clock.now(),
      onHead: (network, head) => this.#o.onHead(id, network, head),
      onProgress: this.#o.onProgress,
      ...this.#plan(id),
    })
    this.#state.save(id, state)
    this.#o.onChanged(result.statuses)
    const fresh = result.statuses.filter((s) => s.unseen && !before.has(stateKey(s.network, s.address)))
    if (fresh.length > 0) this.#o.notify?.('Watchlist: something changed', describeChanges(fresh))
    for (const n of result.networks) if (n.error) this.#o.log.warn(`watch check of ${n.network}: ${n.error}`)
    return result
  }

  #schedule(): void {
    if (this.#timer !== null) this.#o.clock.clearTimeout(this.#timer)
    this.#timer = null
    if (this.#disposed || !this.#visible) return
    const id = this.#o.activeId()
    if (!id || !this.#state.profile(id).periodic) return
    const interval = this.intervalMs()
    if (interval === null) return
    this.#timer = this.#o.clock.setTimeout(() => {
      this.#timer = null
      this.check(undefined, 'background')
        .catch((error: unknown) => this.#o.log.warn(`periodic watch check: ${errorMessage(error)}`))
        .finally(() => this.#schedule())
    }, interval)
  }
}

/** "3 watched addresses changed: 2 new transactions, balances moved." */
export function describeChanges(statuses: WatchStatus[]): string {
  const txs = statuses.reduce((n, s) => n + s.newTxs, 0)
  const more = statuses.some((s) => s.newTxsMore)
  const noun = statuses.length === 1 ? 'address' : 'addresses'
  const details: string[] = []
  if (txs > 0) details.push(`${txs}${more ? '+' : ''} new transaction${txs === 1 && !more ? '' : 's'}`)
  if (statuses.some((s) => s.deltas.length > 0)) details.push('balances moved')
  return `${statuses.length} watched ${noun} changed${details.length ? `: ${details.join(', ')}` : ''}.`
}

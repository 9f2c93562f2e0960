import type { HeightView } from '../../../shared/bridge/contract'
import { AppError } from '../util/app-error'
import type { Logger } from '../util/logger'
import { systemClock, type Clock, type ClockTimer } from '../util/clock'
import { ChainEstimator } from './chain-estimator'

export interface HeadSource {
  /** The head (with its block's timestamp when known) and gas price, in one request (a JSON-RPC batch). */
  head(network: string): Promise<{ height: number; timestampMs?: number; gasPriceWei: string | null }>
  /** Average block time from block timestamps, one request; null when it cannot tell. */
  blockTime(network: string, height: number): Promise<number | null>
}

export interface HeightWatcherOptions {
  networks: string[]
  source: HeadSource
  /** The profile's daily quota, read at each scheduling. */
  quotaPerDay: () => number
  clock?: Clock
  /** Share of the quota that polling may use per `budgetHours` visible hours. Default 0.10. */
  budgetFraction?: number
  /** Default 8. */
  budgetHours?: number
  /** Never poll a network more often than this. Default 12 s. */
  minIntervalMs?: number
  /** Never wait longer than this between polls of a visible network. Default 1 h. */
  maxIntervalMs?: number
  /** Fewest milliseconds between two events of one network. Default 1000. */
  tickMs?: number
  onHeight: (view: HeightView) => void
  log?: Logger
}

interface NetworkState {
  estimator: ChainEstimator
  gasPriceWei: string | null
  nextPollAt: number
  polling: boolean
  /** Block-time seed requests made (at most 3 per session; a seed may be refused as implausible). */
  seeds: number
  seeded: boolean
  lastFailedAt: number | null
  lastSent: string
}

/**
 * Live block height and gas price per network. Polls only while a window is visible, each
 * network at an interval that keeps polling within a budget (default ≤ 10% of the daily quota
 * per 8 visible hours: 1000/day → 100 requests per 8 h → with two networks and one seed
 * request each, one poll per network every 9.8 min). Between polls the height is extrapolated from the learned block
 * time (marked `estimated`), and every transactions answer corrects it for free.
 */
export class HeightWatcher {
  readonly #o: HeightWatcherOptions
  readonly #clock: Clock
  readonly #nets = new Map<string, NetworkState>()
  #visible = false
  #timer: ClockTimer | null = null
  #disposed = false

  constructor(options: HeightWatcherOptions) {
    this.#o = options
    this.#clock = options.clock ?? systemClock
    for (const network of options.networks) {
      this.#nets.set(network, { estimator: new ChainEstimator(), gasPriceWei: null, nextPollAt: 0, polling: false, seeds: 0, seeded: false, lastFailedAt: null, lastSent: '' })
    }
  }

  /**
   * Poll interval per network, from the budget: `quota × fraction` requests per `hours`
   * visible hours, shared by the networks, less the one block-time seed each network costs.
   */
  intervalMs(): number {
    const fraction = this.#o.budgetFraction ?? 0.1
    const hours = this.#o.budgetHours ?? 8
    const perNetwork = (this.#o.quotaPerDay() * fraction) / Math.max(1, this.#nets.size) - 1
    const interval = perNetwork > 0 ? (hours * 3600_000) / perNetwork : Infinity
    return Math.min(this.#o.maxIntervalMs ?? 3600_000, Math.max(this.#o.minIntervalMs ?? 12_000, Math.ceil(interval)))
  }

  setVisible(visible: boolean): void {
    if (this.#disposed || visible === this.#visible) return
    this.#visible = visible
    if (visible) {
      for (const n of this.#nets.keys()) this.#emit(n, true)
      this.#wake()
    } else if (this.#timer !== null) {
      this.#clock.clearTimeout(this.#timer)
      this.#timer = null
    }
  }

  /** A head learned for free (transactions answer, key test). */
  observe(network: string, height: number, atMs: number): void {
    const net = this.#nets.get(network)
    if (!net || !net.estimator.observe(height, atMs)) return
    this.#emit(network)
  }

  headOf(network: string): number | null {
    return this.#nets.get(network)?.estimator.estimate(this.#clock.now())?.height ?? null
  }

  views(): HeightView[] {
    return [...this.#nets.keys()].map((n) => this.#view(n))
  }

  dispose(): void {
    this.#disposed = true
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer)
    this.#timer = null
  }

  #view(network: string): HeightView {
    const net = this.#nets.get(network)!
    const now = this.#clock.now()
    const est = net.estimator.estimate(now)
    const last = net.estimator.last
    const interval = this.intervalMs()
    const age = last ? now - last.atMs : Infinity
    const stale = !last || age > 2 * interval + 60_000 || (net.lastFailedAt !== null && age > interval)
    const bt = net.estimator.blockTimeMs()
    return {
      network,
      height: est ? String(est.height) : null,
      estimated: est?.estimated ?? false,
      stale,
      gasPriceWei: net.gasPriceWei,
      observedAt: last ? new Date(last.atMs).toISOString() : null,
      blockTimeMs: bt === null ? null : Math.round(bt),
    }
  }

  #emit(network: string, force = false): void {
    if (!this.#visible && !force) return
    const view = this.#view(network)
    const net = this.#nets.get(network)!
    const text = JSON.stringify(view)
    if (!force && text === net.lastSent) return
    net.lastSent = text
    this.#o.onHeight(view)
  }

  /** One timer for everything: due polls, then the next moment any estimate changes. */
  #wake(): void {
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer)
    this.#timer = null
    if (!this.#visible || this.#disposed) return
    const now = this.#clock.now()
    let next = Infinity
    for (const [network, net] of this.#nets) {
      if (!net.polling && now >= net.nextPollAt) void this.#poll(network)
      if (!net.polling) next = Math.min(next, net.nextPollAt)
      this.#emit(network)
      const change = net.estimator.nextChangeAt(now)
      if (change !== null) next = Math.min(next, Math.max(change, now + (this.#o.tickMs ?? 1000)))
    }
    if (next !== Infinity) this.#timer = this.#clock.setTimeout(() => this.#wake(), Math.max(1, Math.ceil(next - now)))
  }

  async #poll(network: string): Promise<void> {
    const net = this.#nets.get(network)!
    net.polling = true
    const interval = this.intervalMs()
    try {
      const head = await this.#o.source.head(network)
      const at = this.#clock.now()
      net.gasPriceWei = head.gasPriceWei
      net.lastFailedAt = null
      net.estimator.observe(head.height, at, head.timestampMs)
      net.nextPollAt = at + interval
      // Block timestamps only describe live production when the head's is recent.
      const live = head.timestampMs !== undefined && Math.abs(at - head.timestampMs) <= 30_000
      if (!net.seeded && live && net.seeds < 3) {
        net.seeds += 1
        const bt = await this.#o.source.blockTime(network, head.height).catch(() => null)
        if (bt !== null) {
          net.seeded = true
          net.estimator.seedBlockTime(bt)
        }
      }
    } catch (error) {
      const now = this.#clock.now()
      net.lastFailedAt = now
      // Out of quota (or the reserve reached): wait for the reset rather than keep asking.
      // Otherwise try again sooner than usual, but not so often that an outage eats the budget.
      const wait = error instanceof AppError && error.kind === 'quota-exhausted' ? (error.details.retryAfterMs ?? interval) : interval / 4
      net.nextPollAt = now + Math.max(wait, this.#o.minIntervalMs ?? 12_000)
      if (!(error instanceof AppError && error.kind === 'cancelled')) {
        this.#o.log?.warn(`height of ${network}: ${error instanceof Error ? error.message : String(error)}`)
      }
    } finally {
      net.polling = false
    }
    if (this.#disposed) return
    this.#emit(network)
    this.#wake()
  }
}

import type { HeightView } from '@shared/bridge/contract'
import { errorMessage } from '@shared/guards'
import { AppError } from '../util/app-error'
import type { Logger } from '../util/logger'
import { systemClock, type Clock, type ClockTimer } from '../util/clock'
import { ChainEstimator } from './chain-estimator'
import { withDefaults } from '../util/options'

import type { HeadSource } from './head-source'

export type { BlockTimeSeed, HeadSource } from './head-source'

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
  /** Never poll a network more often than this, once its block time is known. Default 12 s. */
  minIntervalMs?: number
  /**
   * The first gap of the early ramp: while the block time rests on a short baseline, the next
   * poll comes after at most the baseline's length (5 s, 10 s, 20 s, ... doubling up to the
   * regular interval), so the height is live from the first minute. Default 5 s.
   */
  rampStartMs?: number
  /** The budget's interval never exceeds this (a tiny quota). Default 1 h. */
  maxIntervalMs?: number
  /**
   * Drift allowed between polls, in blocks (worst case: typical drift is a third of it). Once
   * the block time is well measured, the next poll comes when the extrapolation could have
   * drifted this far (ChainEstimator.driftGapMs), which is often much later than the budget
   * would allow: a regular chain costs a few requests an hour, not the whole budget. Default 2.
   */
  toleranceBlocks?: number
  /**
   * ...but never later than this (or the budget's interval, when that is longer): a chain that
   * halted or changed pace shows within it, and the estimate is marked stale when a poll is
   * twice as late. Default 30 min.
   */
  confirmEveryMs?: number
  /** Fewest milliseconds between two events of one network. Default 1000. */
  tickMs?: number
  onHeight: (view: HeightView) => void
  /**
   * Whether the network's RPC endpoint answers as far as the connection state knows (read at
   * each view): false stops the extrapolation at once. Default: always.
   */
  answering?: (network: string) => boolean
  log?: Logger
}

interface NetworkState {
  estimator: ChainEstimator
  gasPriceWei: string | null
  /** The network's chain id (decimal) once the source knows it. */
  chainId: string | null
  gasAt: number | null
  nextPollAt: number
  polling: boolean
  /** Block-time seed requests made (at most 3 per session, only after failed requests; a refused seed is not asked again). */
  seeds: number
  seeded: boolean
  lastFailedAt: number | null
  /** Polls failed in a row (reset by an answer): the ramp's retries back off with it. */
  failures: number
  lastSent: string
  /** The gap to the poll scheduled last (the view calls the height stale when far past it). */
  gapMs: number
  /**
   * The last answer was further from the estimate than `toleranceBlocks`: the chain does not
   * keep the pace measured (it halted, slowed, or its blocks come irregularly), so polls come at
   * the budget's interval again until an answer agrees.
   */
  offPace: boolean
}

/**
 * Live block height and gas price per network. Polls only while a window is visible, each
 * network never more often than a budget allows (default ≤ 10% of the daily quota per 8
 * visible hours: 1000/day → 100 requests per 8 h → with two networks, one seed request and the
 * early ramp each, one poll per network about every 11 min with batches, twice that without),
 * and no more often than the estimate needs: once the block time is measured over a long
 * enough stretch, the next poll comes when the extrapolation could have drifted
 * `toleranceBlocks`, at most `confirmEveryMs` later. The block time is learned in the first live
 * poll from the head and an older block's timestamp (the `finalized` block in the same batch, or
 * one ~100 back in a request of its own); when those timestamps cannot tell (seeded history),
 * from the polls themselves, which come fast at first (5 s, 10 s, 20 s, ...) and slow down as
 * the baseline grows. Between polls the height is extrapolated (marked `estimated`); every
 * answer that carries a block number corrects it for free; `stale` when polls fail or stop.
 */
/**
 * A poll that has not answered this many block times after it was due stops the extrapolation;
 * the header shows an extrapolation only this many block times past its observation.
 */
const OVERDUE_BLOCKS = 3
/** ...plus this, for a request's own round trip. */
const OVERDUE_SLACK_MS = 2000

/** The defaults of `HeightWatcherOptions` (documented on each field). */
const WATCHER_DEFAULTS = {
  budgetFraction: 0.1,
  budgetHours: 8,
  minIntervalMs: 12_000,
  maxIntervalMs: 3600_000,
  rampStartMs: 5000,
  tickMs: 1000,
  toleranceBlocks: 2,
  confirmEveryMs: 30 * 60_000,
}

export class HeightWatcher {
  readonly #o: HeightWatcherOptions & typeof WATCHER_DEFAULTS
  readonly #clock: Clock
  readonly #nets = new Map<string, NetworkState>()
  #visible = false
  #timer: ClockTimer | null = null
  #disposed = false

  constructor(options: HeightWatcherOptions) {
    this.#o = { ...options, ...withDefaults(WATCHER_DEFAULTS, options) }
    this.#clock = options.clock ?? systemClock
    for (const network of options.networks) {
      this.#nets.set(network, {
        estimator: new ChainEstimator(),
        gasPriceWei: null,
        chainId: null,
        gasAt: null,
        nextPollAt: 0,
        polling: false,
        seeds: 0,
        seeded: false,
        lastFailedAt: null,
        failures: 0,
        lastSent: '',
        gapMs: 0,
        offPace: false,
      })
    }
  }

  /**
   * The regular poll interval of a network, from the budget: `quota × fraction` requests per
   * `hours` visible hours, shared by the networks, less the one block-time seed and the early
   * ramp each network costs, divided by what one poll really costs (1 request with batches, 2
   * without). Without `network`, the dearest network's.
   */
  intervalMs(network?: string): number {
    const fraction = this.#o.budgetFraction
    const hours = this.#o.budgetHours
    const min = this.#o.minIntervalMs
    const max = this.#o.maxIntervalMs
    const names = network ? [network] : [...this.#nets.keys()]
    const cost = Math.max(1, ...names.map((n) => this.#o.source.unitsPerPoll(n)))
    const perNetwork = (this.#o.quotaPerDay() * fraction) / Math.max(1, this.#nets.size) - 1
    // The ramp's polls (5 s, 10 s, ... up to the interval) are paid from the same budget; the
    // count depends on the interval, so settle it in a few rounds.
    let interval = max
    for (let round = 0; round < 4; round++) {
      const polls = perNetwork / cost - this.#rampPolls(interval)
      interval = Math.min(max, Math.max(min, Math.ceil(polls > 0 ? (hours * 3600_000) / polls : Infinity)))
    }
    return interval
  }

  /**
   * The gap to the next poll after an answer: within the baseline the block time rests on while
   * that is short (the early ramp), then as long as the drift allows, bounded by the confirm
   * interval (or the budget's, when longer). Never shorter than the ramp start.
   */
  #gap(net: NetworkState, interval: number): number {
    const ramp = Math.max(this.#o.rampStartMs, net.estimator.baselineMs())
    if (net.offPace) return Math.max(this.#o.rampStartMs, Math.min(interval, ramp))
    const drift = net.estimator.driftGapMs(this.#o.toleranceBlocks) ?? 0
    const cap = Math.max(interval, this.#o.confirmEveryMs)
    return Math.max(this.#o.rampStartMs, Math.min(cap, Math.max(ramp, drift)))
  }

  /** Whether an answer agrees with the extrapolation (before it corrects it): see `offPace`. */
  #judgePace(net: NetworkState, height: number, atMs: number): void {
    const expected = net.estimator.estimate(atMs)
    if (expected) net.offPace = Math.abs(height - expected.height) > this.#o.toleranceBlocks
  }

  /** Polls of the early ramp before the gap reaches `interval`. */
  #rampPolls(interval: number): number {
    const start = this.#o.rampStartMs
    return interval > start ? Math.ceil(Math.log2(interval / start)) : 0
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

  /**
   * A head and gas price asked for in another batch (a revalidation, data/revalidate.ts): the
   * same answer a poll would bring (less the block's timestamp), so it counts as this network's
   * poll: the next one comes no earlier than the gap this answer allows. It never brings a
   * poll forward.
   */
  polled(network: string, height: number, gasPriceWei: string | null, atMs: number): void {
    const net = this.#nets.get(network)
    if (!net || this.#disposed) return
    this.#judgePace(net, height, atMs)
    net.estimator.observe(height, atMs)
    if (gasPriceWei !== null) {
      net.gasPriceWei = gasPriceWei
      net.gasAt = atMs
    }
    if (!net.polling && net.lastFailedAt === null) {
      const gap = this.#gap(net, this.intervalMs(network))
      if (atMs + gap > net.nextPollAt) {
        net.nextPollAt = atMs + gap
        net.gapMs = gap
      }
    }
    this.#emit(network)
    if (this.#visible) this.#wake()
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

  /** Re-reads every view (the connection state changed): sends those that changed. */
  refresh(): void {
    for (const network of this.#nets.keys()) this.#emit(network)
  }

  #view(network: string): HeightView {
    const net = this.#nets.get(network)!
    const now = this.#clock.now()
    const last = net.estimator.last
    const bt = net.estimator.blockTimeMs()
    const interval = this.intervalMs()
    const age = last ? now - last.atMs : Infinity
    // No extrapolation past what is known (docs/decisions/connection-truth.md): once a poll
    // failed, the endpoint is not answering, or the poll due has not answered within a few
    // block times, the last observed height is shown with its time.
    const overdue = now > net.nextPollAt + OVERDUE_BLOCKS * (bt ?? 0) + OVERDUE_SLACK_MS
    const untrusted = net.lastFailedAt !== null || this.#o.answering?.(network) === false || (last !== null && overdue)
    const stale = !last || untrusted || age > 2 * Math.max(interval, net.gapMs) + 60_000
    const est = stale ? (last ? { height: last.height, estimated: false } : null) : net.estimator.estimate(now)
    const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())
    const liveUntil = last && bt !== null && !stale ? last.atMs + OVERDUE_BLOCKS * bt : null
    return {
      network,
      height: est ? String(est.height) : null,
      estimated: est?.estimated ?? false,
      stale,
      observedHeight: last ? String(last.height) : null,
      liveUntil: iso(liveUntil),
      gasPriceWei: net.gasPriceWei,
      gasObservedAt: iso(net.gasAt),
      observedAt: iso(last?.atMs ?? null),
      blockTimeMs: bt === null ? null : Math.round(bt),
      chainId: net.chainId ?? this.#o.source.chainIdOf?.(network) ?? null,
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
      if (change !== null) next = Math.min(next, Math.max(change, now + this.#o.tickMs))
    }
    if (next !== Infinity) this.#timer = this.#clock.setTimeout(() => this.#wake(), Math.max(1, Math.ceil(next - now)))
  }

  async #poll(network: string): Promise<void> {
    const net = this.#nets.get(network)!
    net.polling = true
    const interval = this.intervalMs(network)
    try {
      // The block time's seed rides in the first poll's batch where batches work.
      const wantSeed = !net.seeded && net.seeds < 3 && this.#o.source.batches(network)
      const head = await this.#o.source.head(network, { seed: wantSeed })
      const at = this.#clock.now()
      if (head.chainId) net.chainId = head.chainId
      if (head.gasPriceWei !== null) {
        net.gasPriceWei = head.gasPriceWei
        net.gasAt = at
      }
      net.lastFailedAt = null
      net.failures = 0
      this.#judgePace(net, head.height, at)
      net.estimator.observe(head.height, at, head.timestampMs)
      // Block timestamps only describe live production when the head's is recent.
      const live = head.timestampMs !== undefined && Math.abs(at - head.timestampMs) <= 30_000
      // Not once the window hid while the head was on its way: a hidden app sends nothing new.
      if (!net.seeded && live && this.#visible && net.seeds < 3 && head.timestampMs !== undefined) {
        net.seeds += 1
        try {
          const seed =
            head.seed !== undefined ? head.seed : await this.#o.source.blockTime(network, head.height, head.timestampMs)
          // Refused (pinned history): not asked again; the ramp's observations take over.
          net.seeded = true
          if (seed) net.estimator.seedBlockTime(seed.blockTimeMs, seed.spanMs)
        } catch {
          // A failed request: asked again at a later poll (at most 3 times).
        }
      }
      // The ramp: poll again within the baseline the block time rests on while it is short,
      // then when the drift could reach the tolerance. Drift grows with (time since anchor) /
      // baseline, so this keeps the estimate within about a block from the first minute.
      net.gapMs = this.#gap(net, interval)
      net.nextPollAt = this.#clock.now() + net.gapMs
    } catch (error) {
      const now = this.#clock.now()
      net.lastFailedAt = now
      // Out of quota (or the reserve reached): wait for the reset rather than keep asking.
      // Otherwise try again sooner than usual, but not so often that an outage eats the budget.
      net.failures += 1
      // While the block time is still being learned (the ramp), a lost poll would freeze the
      // estimate for minutes: try again at the ramp's pace, doubling with each failure in a row
      // so that an outage at start-up costs a few requests, never more than interval / 4 allows.
      const learning = net.estimator.blockTimeMs() === null || net.estimator.baselineMs() < interval
      const ramp = Math.max(this.#o.rampStartMs, net.estimator.baselineMs()) * 2 ** (net.failures - 1)
      const retry = learning ? Math.min(interval / 4, ramp) : interval / 4
      const wait =
        error instanceof AppError && error.kind === 'quota-exhausted' ? (error.details.retryAfterMs ?? interval) : retry
      net.nextPollAt = now + Math.max(wait, this.#o.minIntervalMs)
      // Work offline is the user's choice, not a problem to log at every poll.
      if (!(error instanceof AppError && (error.kind === 'cancelled' || error.kind === 'offline-by-choice'))) {
        this.#o.log?.warn(`height of ${network}: ${errorMessage(error)}`)
      }
    } finally {
      net.polling = false
    }
    if (this.#disposed) return
    this.#emit(network)
    this.#wake()
  }
}

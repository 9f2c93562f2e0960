import { withDefaults } from '../util/options'
/**
 * What is known about one network's head: when its recent blocks were produced, the block
 * time learned from them, and the height extrapolated in between.
 *
 * Each observation places one block in time. With the block's own timestamp (a poll reads
 * the latest block) it was produced between that second and the moment we saw it; without
 * (a head implied by a transactions answer) it was produced on average half a block before.
 * The block time is the slope over the longest recent baseline, which averages out per-block
 * jitter; until two observations are far enough apart, a seed from block timestamps stands in.
 * Between observations the head is the anchor block plus the whole block times since it was
 * produced.
 */
export interface Observation {
  /** When we learned of it. */
  atMs: number
  height: number
  /** Best estimate of when the block was produced. */
  producedMs: number
  /**
   * Half the width of the window the block was produced in, when its timestamp told (whole
   * seconds, and not after we saw it); undefined for a head seen without its block (then half a
   * block time: see `#spread`).
   */
  spreadMs?: number
}

export interface EstimatorOptions {
  /** Observations older than this are forgotten (the block time may drift). Default 6 h. */
  windowMs?: number
  /** A baseline needs at least this many blocks to be trusted over the seed. Default 2. */
  minBlocks?: number
  /** ...and at least this long. Default 4 s. (Short baselines are fine: the watcher polls again
   * before the extrapolation outruns what the baseline can vouch for; see `baselineMs`.) */
  minSpanMs?: number
}

/** The defaults of `EstimatorOptions` (documented on each field). */
const ESTIMATOR_DEFAULTS = { windowMs: 6 * 3600_000, minBlocks: 2, minSpanMs: 4000 }

export class ChainEstimator {
  readonly #window: number
  readonly #minBlocks: number
  readonly #minSpan: number
  #obs: Observation[] = []
  #anchor: Observation | null = null
  #seedMs: number | null = null
  #seedSpanMs = 0

  constructor(options: EstimatorOptions = {}) {
    const o = withDefaults(ESTIMATOR_DEFAULTS, options)
    this.#window = o.windowMs
    this.#minBlocks = o.minBlocks
    this.#minSpan = o.minSpanMs
  }

  /** The newest observation: extrapolation starts from it. */
  get last(): Observation | null {
    return this.#anchor
  }

  /** A block time from block timestamps `spanMs` apart (e.g. the latest block and one 100 back). */
  seedBlockTime(ms: number, spanMs = 0): void {
    if (!Number.isFinite(ms) || ms <= 0) return
    this.#seedMs = ms
    this.#seedSpanMs = Math.max(0, spanMs)
  }

  /**
   * How long a stretch of the chain the block time was measured over (0 when unknown). The
   * extrapolation's drift grows with time since the anchor over this span, so the watcher keeps
   * its next poll within it while the span is short (the ramp of early polls).
   */
  baselineMs(): number {
    const first = this.#obs[0]
    const last = this.#obs.at(-1)
    const observed =
      first && last && last.height - first.height >= this.#minBlocks ? last.producedMs - first.producedMs : 0
    return Math.max(observed, this.#seedMs === null ? 0 : this.#seedSpanMs)
  }

  /**
   * Records that block `height` was the head at `atMs`; `blockTimestampMs` is the block's own
   * timestamp when known (whole seconds on EVM chains). Returns false for stale news.
   */
  observe(height: number, atMs: number, blockTimestampMs?: number): boolean {
    const anchor = this.#anchor
    if (
      anchor &&
      (height < anchor.height || (height === anchor.height && (blockTimestampMs === undefined || atMs <= anchor.atMs)))
    )
      return false
    const bt = this.blockTimeMs()
    let producedMs: number
    let spreadMs: number | undefined
    // A timestamp far behind our clock says nothing about when the block appeared (a chain
    // loaded with pinned history, a stalled chain): then fall back to the midpoint guess.
    if (
      blockTimestampMs !== undefined &&
      blockTimestampMs <= atMs + 1000 &&
      atMs - blockTimestampMs <= Math.max(30_000, 3 * (bt ?? 0))
    ) {
      // Timestamps are whole seconds: produced in [ts, ts + 1 s), and not after we saw it.
      const until = Math.max(blockTimestampMs, Math.min(blockTimestampMs + 1000, atMs))
      producedMs = (blockTimestampMs + until) / 2
      spreadMs = (until - blockTimestampMs) / 2
    } else {
      producedMs = atMs - (bt ?? 0) / 2
    }
    const observation: Observation =
      spreadMs === undefined ? { atMs, height, producedMs } : { atMs, height, producedMs, spreadMs }
    this.#anchor = observation
    if (anchor && height === anchor.height) {
      this.#obs[this.#obs.length - 1] = observation
      return true
    }
    this.#obs.push(observation)
    const cutoff = atMs - this.#window
    while (this.#obs.length > 2 && this.#obs[0]!.atMs < cutoff) this.#obs.shift()
    if (this.#obs.length > 200) this.#obs.splice(1, this.#obs.length - 200)
    return true
  }

  blockTimeMs(): number | null {
    const observed = this.#observedBaseline()
    return observed ? observed.spanMs / (observed.last.height - observed.first.height) : this.#seedMs
  }

  /**
   * The first and last observations when the block time comes from them rather than the seed:
   * enough blocks and time between them, and the longer baseline wins (a seed over 100 blocks
   * beats a few seconds of observations).
   */
  #observedBaseline(): { first: Observation; last: Observation; spanMs: number } | null {
    const first = this.#obs[0]
    const last = this.#obs.at(-1)
    if (!first || !last) return null
    const spanMs = last.producedMs - first.producedMs
    const enough = last.height - first.height >= this.#minBlocks && spanMs >= this.#minSpan
    return enough && (this.#seedMs === null || spanMs >= this.#seedSpanMs) ? { first, last, spanMs } : null
  }

  /**
   * How long after the anchor block the extrapolation stays within `toleranceBlocks` of the
   * chain, in the worst case the measurements allow (null while the block time is unknown).
   *
   * The block time is a slope between two production times, each known only within its spread
   * (a whole-second timestamp: ±0.5 s; a head seen without its block: ±half a block), so its
   * relative error is at most (spread₁ + spread₂) / span, and after T the extrapolation's phase
   * has drifted by at most T × (spread₁ + spread₂) / span, on top of the anchor's own spread.
   * The height watcher polls again before that reaches the tolerance: the longer the baseline,
   * the longer the gap (a seed over 100 two-second blocks: ~9 min; over an hour: ~2.5 h).
   */
  driftGapMs(toleranceBlocks: number): number | null {
    const anchor = this.#anchor
    const bt = this.blockTimeMs()
    if (!anchor || bt === null) return null
    const observed = this.#observedBaseline()
    // A seed is the slope between two whole-second timestamps: ±0.5 s at each end.
    const [span, error] = observed
      ? [observed.spanMs, this.#spread(observed.first, bt) + this.#spread(observed.last, bt)]
      : [this.#seedSpanMs, 1000]
    const slack = toleranceBlocks * bt - this.#spread(anchor, bt)
    if (slack <= 0 || span <= 0) return 0
    return (slack * span) / Math.max(error, 1)
  }

  #spread(o: Observation, blockTimeMs: number): number {
    return o.spreadMs ?? blockTimeMs / 2
  }

  /** The head now: exact at an observation, extrapolated after it. */
  estimate(nowMs: number): { height: number; estimated: boolean } | null {
    const anchor = this.#anchor
    if (!anchor) return null
    const bt = this.blockTimeMs()
    if (bt === null || nowMs <= anchor.producedMs) return { height: anchor.height, estimated: false }
    const added = Math.floor((nowMs - anchor.producedMs) / bt)
    return { height: anchor.height + added, estimated: added > 0 }
  }

  /** When the estimate next changes, for the ticker. */
  nextChangeAt(nowMs: number): number | null {
    const anchor = this.#anchor
    const bt = this.blockTimeMs()
    if (!anchor || bt === null) return null
    const k = Math.max(0, Math.floor((nowMs - anchor.producedMs) / bt))
    return anchor.producedMs + (k + 1) * bt
  }
}

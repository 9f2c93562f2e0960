import type { BucketLimits } from './limiter-options'

const EPSILON = 1e-9

/**
 * A limiter's token bucket: `burst` tokens that refill at `ratePerSecond`, one taken per unit a
 * request costs. A request dearer than the burst takes more than is there: the bucket then owes
 * (stays below zero) until the rate has paid it back, so the long-run rate holds.
 */
export class TokenBucket {
  readonly #limits: () => BucketLimits
  readonly #queueSafe: boolean
  #tokens: number
  #refilledAt: number
  /** Units of the requests in flight (queue-safe capacity keeps them out of the bucket). */
  #inFlightUnits = 0

  constructor(limits: () => BucketLimits, queueSafe: boolean, now: number) {
    this.#limits = limits
    this.#queueSafe = queueSafe
    this.#tokens = this.capacity()
    this.#refilledAt = now
  }

  get tokens(): number {
    return this.#tokens
  }

  /**
   * The most tokens the bucket may hold now. Exact mode: `burst`. Queue-safe mode: `burst`
   * less the requests in flight, i.e. a request keeps its token until its answer is back.
   *
   * Why: a service may take a request's token only when it gets to it, after its own queue,
   * so requests sent apart can be counted together. Whatever it counts within a window
   * [t1, t2] was either in flight at t1 or sent within the window; by this bucket the latter
   * are at most tokens(t1) + rate·(t2 − t1). With tokens + in flight ≤ burst at every moment
   * the count stays within the service's burst + rate·(t2 − t1), however late it counts.
   * The full burst is still sent at once when nothing is in flight.
   */
  capacity(): number {
    const burst = this.#limits().burst
    return this.#queueSafe ? Math.max(0, burst - this.#inFlightUnits) : burst
  }

  refill(now: number): void {
    // The bucket keeps filling during a server-ordered pause, as the service's own does.
    const elapsed = Math.max(0, now - this.#refilledAt)
    this.#tokens = Math.min(this.capacity(), this.#tokens + (elapsed * this.#limits().ratePerSecond) / 1000)
    this.#refilledAt = now
  }

  /** New limits: no more tokens than the new capacity. */
  clamp(): void {
    this.#tokens = Math.min(this.#tokens, this.capacity())
  }

  /** The service asked for a pause: the bucket starts again from empty (or what it owes). */
  empty(now: number): void {
    this.#tokens = Math.min(0, this.#tokens)
    this.#refilledAt = now
  }

  /** 0 when `need` tokens are there; the ms until they are; null when only answers in flight free them. */
  waitMs(need: number): number | null {
    if (this.#tokens >= need - EPSILON) return 0
    if (this.capacity() < need - EPSILON) return null
    const ms = Math.ceil(((need - this.#tokens) * 1000) / this.#limits().ratePerSecond - EPSILON)
    return Math.max(1, ms)
  }

  /** A request is sent: its units leave the bucket (beyond the burst they are owed). */
  take(cost: number): void {
    this.#tokens -= cost
    this.#inFlightUnits += cost
  }

  /** Its answer is back: refilled up to now under the cap that held while it was out. */
  returned(cost: number, now: number): void {
    this.refill(now)
    this.#inFlightUnits -= cost
  }
}

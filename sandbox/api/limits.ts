/**
 * Per-key limits of spec section 8, enforced together for each request:
 * - a token bucket: `burst` tokens, refilled continuously at `rate` per second;
 * - a daily quota, per calendar day in UTC (resets at 00:00 UTC, not a rolling 24 h).
 * A refused request takes no token and no quota. When the bucket is empty the refusal names
 * "burst" if at most `burst` requests were accepted in the last second (too many at once,
 * e.g. the sixth of six simultaneous requests) and "rate" otherwise (sustained overuse).
 */

export type LimitName = 'rate' | 'burst' | 'quota'

export interface LimitOptions {
  /** Requests per second (refill rate), default 50. */
  rate: number
  /** Bucket size, default 5. */
  burst: number
  /** Accepted requests per UTC day, default 1000. */
  quota: number
  /** Clock in ms; injectable for fake-time tests. */
  now?: () => number
}

export type Verdict = { ok: true } | { ok: false; limit: LimitName; retryAfterS: number; message: string }

const DAY_MS = 86_400_000

export class KeyLimiter {
  private tokens: number
  private refilledAt: number
  private readonly recent: number[] = []
  private day: number
  private used = 0
  private readonly now: () => number

  constructor(private readonly options: LimitOptions) {
    this.now = options.now ?? Date.now
    this.tokens = options.burst
    this.refilledAt = this.now()
    this.day = Math.floor(this.refilledAt / DAY_MS)
  }

  /** Accepted requests today (UTC). */
  get usedToday(): number {
    this.rollDay(this.now())
    return this.used
  }

  /**
   * Takes `units` (1 per request, or the calls of a batch where the sandbox bills per call). A
   * request dearer than the burst is let through once the bucket is full, leaving it owing, as
   * the client's limiter expects; one dearer than what is left today is refused as the quota.
   */
  take(units = 1): Verdict {
    const now = this.now()
    this.rollDay(now)
    if (this.used + units > this.options.quota) {
      const retryAfterS = Math.max(1, Math.ceil(((this.day + 1) * DAY_MS - now) / 1000))
      return {
        ok: false,
        limit: 'quota',
        retryAfterS,
        message: `daily quota of ${this.options.quota} requests used up; it resets at 00:00 UTC`,
      }
    }
    this.tokens = Math.min(this.options.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.options.rate)
    this.refilledAt = now
    while (this.recent.length > 0 && this.recent[0]! <= now - 1000) this.recent.shift()
    const need = Math.min(units, this.options.burst)
    if (this.tokens < need) {
      const retryAfterS = Math.max(1, Math.ceil((need - this.tokens) / this.options.rate))
      const sustained = this.recent.length > this.options.burst
      return sustained
        ? { ok: false, limit: 'rate', retryAfterS, message: `over ${this.options.rate} requests per second` }
        : {
            ok: false,
            limit: 'burst',
            retryAfterS,
            message: `over the burst of ${this.options.burst} requests at once`,
          }
    }
    this.tokens -= units
    this.used += units
    this.recent.push(now)
    return { ok: true }
  }

  private rollDay(now: number): void {
    const day = Math.floor(now / DAY_MS)
    if (day !== this.day) {
      this.day = day
      this.used = 0
    }
  }
}

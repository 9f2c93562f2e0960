import type { LimiterState } from '@shared/bridge/contract'
import { SANDBOX_BILLING, type Billing } from '@shared/domain/billing'
import { AppError } from '../util/app-error'
import { nextUtcMidnight, systemClock, type Clock, type ClockTimer } from '../util/clock'
import { withDefaults } from '../util/options'
import { DailyQuota } from './daily-quota'
import { bestJob, queuedByPriority, quotaRefusalMessage, settleJob, type Job } from './limiter-jobs'
import {
  LIMITER_DEFAULTS,
  type AcquireOptions,
  type BucketLimits,
  type LimiterOptions,
  type Permit,
} from './limiter-options'
import { StateThrottle } from './state-throttle'
import { TokenBucket } from './token-bucket'

export type { LimiterOptions } from './limiter-options'

/** The longest delay a Node timer keeps (2^31-1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * The client-side limiter of one bucket: a token bucket (rate, burst), a cap of `burst`
 * requests in flight, and the daily quota (counted persistently by `DailyQuota`). By default a profile (one API
 * key) has one, across both networks and both endpoints (spec 8 does not say): that is the
 * strictest reading, so it can only under-use a more generous service. A profile whose limits
 * say otherwise (`Limits.scope`) has one per network and/or endpoint (profile-runtime.ts).
 *
 * The day is the calendar day in UTC, matching the sandbox (docs/decisions/limits-per-key.md): the count
 * resets at 00:00 UTC.
 */
export class Limiter {
  readonly profileId: string
  readonly #clock: Clock
  readonly #quota: DailyQuota
  /** The count's write the queue waits for, if any. */
  #countWrite: Promise<void> | null = null
  readonly #reserveFraction: number
  readonly #queueDeadline: number
  readonly #maxPause: number
  #refused: { since: number; count: number } | null = null
  readonly #state: StateThrottle<LimiterState> | null
  #limits: BucketLimits
  readonly #billing: () => Billing
  readonly #bucket: TokenBucket
  #pausedUntil = 0
  #inFlight = 0
  #queue: Job[] = []
  #seq = 0
  #timer: ClockTimer | null = null
  #timerAt = Infinity
  #resetTimer: ClockTimer | null = null
  #disposed = false

  constructor(options: LimiterOptions) {
    this.profileId = options.profileId
    this.#clock = options.clock ?? systemClock
    this.#quota = new DailyQuota({
      id: options.profileId,
      bucket: options.bucket,
      ledger: options.ledger,
      clock: this.#clock,
      reserveStep: options.reserveStep,
    })
    const o = withDefaults(LIMITER_DEFAULTS, options)
    this.#reserveFraction = o.reserveFraction
    this.#queueDeadline = o.queueDeadlineMs
    this.#maxPause = o.maxPauseMs
    const onState = options.onState
    this.#state = onState ? new StateThrottle(this.#clock, o.stateIntervalMs, () => this.state(), onState) : null
    this.#limits = { ...options.limits }
    this.#billing = options.billing ?? (() => SANDBOX_BILLING)
    this.#bucket = new TokenBucket(() => this.#limits, o.queueSafe, this.#clock.now())
    this.#armResetTimer()
  }

  get reserve(): number {
    return Math.floor(this.#limits.quotaPerDay * this.#reserveFraction)
  }

  /** The fingerprint of the key counted now ('' before the first request). */
  get keyTag(): string {
    return this.#quota.keyTag
  }

  /** Tells the limiter which key it counts for; each key has its own count (daily-quota.ts). */
  useKey(keyTag: string): void {
    if (!this.#quota.useKey(keyTag)) return
    this.#publish()
  }

  setLimits(limits: BucketLimits): void {
    this.#limits = { ...limits }
    this.#bucket.clamp()
    this.#pump()
  }

  /** Waits for tokens, a free slot and quota; counts the request's units before it is sent. */
  acquire(options: AcquireOptions): Promise<Permit> {
    if (this.#disposed) return Promise.reject(new AppError('cancelled', 'The app is shutting down.'))
    const given = options.priority
    const priority = typeof given === 'function' ? given : () => given
    const pausedFor = this.#pausedUntil - this.#clock.now()
    if (pausedFor > this.#queueDeadline) {
      // No use queueing behind a pause longer than any request may wait: say so at once.
      const until = new Date(this.#pausedUntil).toISOString().slice(11, 19)
      return Promise.reject(
        new AppError(
          'rate-limited',
          `The service asked for a pause; Chainscope sends nothing until ${until} UTC. Try again then.`,
          { retryAfterMs: pausedFor },
        ),
      )
    }
    return new Promise<Permit>((resolve, reject) => {
      const cost = Math.max(1, Math.ceil(options.cost ?? 1))
      const job: Job = { seq: ++this.#seq, cost, priority, resolve, reject, signal: options.signal }
      // Infinity (tests, a simulated clock) means no deadline; Node cannot hold more than MAX_TIMER_MS.
      if (this.#queueDeadline <= MAX_TIMER_MS)
        job.deadline = this.#clock.setTimeout(() => this.#expire(job), this.#queueDeadline)
      if (options.signal) {
        if (options.signal.aborted) {
          if (job.deadline !== undefined) this.#clock.clearTimeout(job.deadline)
          return reject(options.signal.reason)
        }
        job.onAbort = () => {
          const i = this.#queue.indexOf(job)
          if (i >= 0) {
            this.#queue.splice(i, 1)
            if (job.deadline !== undefined) this.#clock.clearTimeout(job.deadline)
            reject(options.signal?.reason)
            this.#pump()
          }
        }
        options.signal.addEventListener('abort', job.onAbort, { once: true })
      }
      this.#queue.push(job)
      this.#pump()
    })
  }

  /**
   * The service answered 429 for rate or burst: send nothing more until `ms` have passed,
   * at most `maxPauseMs` (a server's `Retry-After` of years must not freeze the profile).
   */
  pauseFor(ms: number): void {
    const pause = Math.min(Math.max(0, ms), this.#maxPause)
    this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + pause)
    this.#bucket.empty(this.#clock.now())
    this.#pump()
  }

  /** The service refused a request (429); returns how many in a row, and since when. */
  noteRefused(): { since: number; count: number } {
    this.#refused = this.#refused
      ? { since: this.#refused.since, count: this.#refused.count + 1 }
      : { since: this.#clock.now(), count: 1 }
    this.#publish()
    return { ...this.#refused }
  }

  /** The service accepted a request: whatever it refused before is over. */
  noteAccepted(): void {
    if (this.#refused === null) return
    this.#refused = null
    this.#publish()
  }

  /** The service says today's quota is used up, whatever our count says: believe it. */
  markQuotaExhausted(): void {
    this.#quota.exhaust(this.#limits.quotaPerDay)
    this.#pump()
  }

  state(): LimiterState {
    this.#bucket.refill(this.#clock.now())
    const queued = queuedByPriority(this.#queue)
    const left = this.#left()
    return {
      profileId: this.profileId,
      // A request dearer than the burst leaves the bucket owing (below zero): shown as empty.
      tokens: Math.max(0, Math.floor(this.#bucket.tokens * 100) / 100),
      burst: this.#limits.burst,
      ratePerSecond: this.#limits.ratePerSecond,
      queued,
      inFlight: this.#inFlight,
      usedToday: this.#quota.used(),
      quotaPerDay: this.#limits.quotaPerDay,
      leftToday: left,
      resetsAt: new Date(nextUtcMidnight(this.#clock.now())).toISOString(),
      reserve: this.reserve,
      billing: this.#billing(),
      throttled: this.#queue.length > 0 || this.#clock.now() < this.#pausedUntil || left <= this.reserve,
      ...(this.#clock.now() < this.#pausedUntil ? { pausedUntil: new Date(this.#pausedUntil).toISOString() } : {}),
      ...(this.#refused && this.#refused.count >= 2
        ? { refusing: { since: new Date(this.#refused.since).toISOString(), count: this.#refused.count } }
        : {}),
    }
  }

  /** Rejects everything queued (with `message`), stops the timers and writes the exact count. */
  dispose(message = 'The app is shutting down.'): void {
    if (this.#disposed) return
    this.#disposed = true
    for (const job of this.#queue.splice(0)) this.#settle(job, new AppError('cancelled', message))
    for (const t of [this.#timer, this.#resetTimer]) if (t !== null) this.#clock.clearTimeout(t)
    this.#timer = this.#resetTimer = null
    this.#state?.stop()
    this.#quota.flush()
  }

  #left(): number {
    return Math.max(0, this.#limits.quotaPerDay - this.#quota.used())
  }

  #pump(): void {
    if (this.#disposed) return
    const now = this.#clock.now()
    this.#bucket.refill(now)
    while (this.#queue.length > 0) {
      const left = this.#left()
      // A request costing more than what is left today would be refused by the service too.
      this.#rejectWhere((job) => job.cost > left, 'quota')
      // Background work may not take the units kept for the user's own clicks.
      this.#rejectWhere((job) => job.priority() === 'background' && left - job.cost < this.reserve, 'reserve')
      if (this.#queue.length === 0) break
      if (this.#inFlight >= this.#limits.burst) break
      if (now < this.#pausedUntil) {
        this.#wakeAt(this.#pausedUntil)
        break
      }
      const best = bestJob(this.#queue)
      // At most a full bucket is asked for: a dearer request waits for a full bucket, then goes.
      const need = Math.min(best.cost, this.#limits.burst)
      const wait = this.#bucket.waitMs(need)
      // null (queue-safe): the tokens come back with the answers in flight, which pump again.
      if (wait === null) break
      if (wait > 0) {
        this.#wakeAt(now + wait)
        break
      }
      // The day's count reaches the disk before the request goes (daily-quota.ts `ready`).
      const counted = this.#quota.ready(this.#limits.quotaPerDay, best.cost)
      if (counted) {
        this.#awaitCount(counted)
        break
      }
      const job = this.#queue.splice(this.#queue.indexOf(best), 1)[0]!
      // Beyond the burst the tokens are owed (below zero), so the rate still holds over time.
      this.#bucket.take(job.cost)
      this.#quota.take(this.#limits.quotaPerDay, job.cost)
      this.#inFlight += 1
      let released = false
      this.#settle(job, {
        release: () => {
          if (released) return
          released = true
          this.#bucket.returned(job.cost, this.#clock.now())
          this.#inFlight -= 1
          this.#pump()
        },
      })
    }
    this.#publish()
  }

  /** Pumps again once the count's write is decided (one wait at a time). */
  #awaitCount(written: Promise<void>): void {
    if (this.#countWrite === written) return
    this.#countWrite = written
    void written.then(() => {
      if (this.#countWrite === written) this.#countWrite = null
      this.#pump()
    })
  }

  #rejectWhere(match: (job: Job) => boolean, why: 'quota' | 'reserve'): void {
    const resetsAt = nextUtcMidnight(this.#clock.now())
    const retryAfterMs = resetsAt - this.#clock.now()
    const at = new Date(resetsAt).toISOString().slice(11, 16)
    const billing = this.#billing()
    const left = this.#left()
    const message = (job: Job): string =>
      quotaRefusalMessage(why, job.cost, { left, quotaPerDay: this.#limits.quotaPerDay, billing, resetsAtUtc: at })
    const keep: Job[] = []
    for (const job of this.#queue) {
      if (match(job)) this.#settle(job, new AppError('quota-exhausted', message(job), { retryAfterMs }))
      else keep.push(job)
    }
    if (keep.length !== this.#queue.length) this.#queue = keep
  }

  /** A job's deadline passed while it still waited in the queue. */
  #expire(job: Job): void {
    const i = this.#queue.indexOf(job)
    if (i < 0) return
    this.#queue.splice(i, 1)
    const s = Math.round(this.#queueDeadline / 1000)
    this.#settle(
      job,
      new AppError(
        'timeout',
        `The request waited ${s} s for its turn under the service's limits and was dropped; try again.`,
      ),
    )
    this.#pump()
  }

  #settle(job: Job, outcome: Permit | AppError): void {
    settleJob(this.#clock, job, outcome)
  }

  #wakeAt(at: number): void {
    if (this.#timer !== null && this.#timerAt <= at) return
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer)
    this.#timerAt = at
    // Node fires a timer of more than 2^31-1 ms after 1 ms: a service's Retry-After of weeks
    // would make a 1 ms loop. Capped, the timer fires early and `#pump` arms it again.
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#timer = null
        this.#timerAt = Infinity
        this.#pump()
      },
      Math.min(at - this.#clock.now(), MAX_TIMER_MS),
    )
  }

  #armResetTimer(): void {
    const now = this.#clock.now()
    this.#resetTimer = this.#clock.setTimeout(
      () => {
        this.#resetTimer = null
        if (this.#disposed) return
        this.#pump()
        this.#armResetTimer()
      },
      nextUtcMidnight(now) - now + 1,
    )
  }

  #publish(): void {
    if (!this.#disposed) this.#state?.publish()
  }
}

import type { LimiterState, Priority } from '@shared/bridge/contract'
import type { Limits } from '@shared/domain/profile'
import type { Billing } from '@shared/domain/billing'
import type { Clock } from '../util/clock'
import type { QuotaLedger } from './quota-store'

/** One bucket's numbers; which requests share it (`Limits.scope`) is profile-runtime.ts's business. */
export type BucketLimits = Pick<Limits, 'ratePerSecond' | 'burst' | 'quotaPerDay'>

export interface LimiterOptions {
  /** The profile's ledger id: the profile id, or `<profile id>|<bucket>` for a narrower scope. */
  profileId: string
  /** The bucket within the key ('' or absent: the whole key); the key's count is kept per bucket. */
  bucket?: string
  limits: BucketLimits
  /** Where the daily count is kept (a file in the data folder in the app). */
  ledger: QuotaLedger
  /** Default: the system clock. Tests pass nothing and use vi.useFakeTimers(). */
  clock?: Clock
  /** Background work stops once fewer than this share of the daily quota is left. Default 0.2. */
  reserveFraction?: number
  /**
   * Keep within the service's bucket even when the service counts a request late (after it
   * sat in the service's own queue). Default false: an exact bucket of `burst` tokens with
   * up to `burst` requests in flight. The core sets it; see `#capacity`.
   */
  queueSafe?: boolean
  /** The count is persisted this many requests ahead (see quota-store.ts). Default 10. */
  reserveStep?: number
  /**
   * A request waits at most this long for a token, a slot or the end of a pause, then fails
   * with `timeout` (every bridge call answers within 30 s; docs/decisions/service-edges.md). Default 25 s.
   */
  queueDeadlineMs?: number
  /** The longest pause a service may impose with `Retry-After`. Default 60 s. */
  maxPauseMs?: number
  /** Shortest gap between two state events. Default 250 ms. */
  stateIntervalMs?: number
  onState?: (state: LimiterState) => void
  /** The unit the service counts in, as the profile says now; words messages and the state. Default 'request'. */
  billing?: () => Billing
}

export interface AcquireOptions {
  /** A function when the priority may rise while queued (a user joins a prefetch). */
  priority: Priority | (() => Priority)
  signal?: AbortSignal
  /**
   * What the request costs in the service's unit (billing.ts): 1 for a request where the
   * service counts requests, N or N+1 for a batch of N calls where it counts calls. Default 1.
   * The bucket lends a request that costs more than the burst: it goes once the bucket is
   * full, and the tokens it took beyond the burst are owed (the bucket stays below zero until
   * the rate has paid them back), so the long-run rate holds; the daily quota counts it whole.
   */
  cost?: number
}

/** Held while a request is on the wire; `release` frees its in-flight slot. */
export interface Permit {
  release(): void
}

/** The defaults of `LimiterOptions` (documented on each field). */
export const LIMITER_DEFAULTS = {
  reserveFraction: 0.2,
  queueSafe: false,
  stateIntervalMs: 250,
  queueDeadlineMs: 25_000,
  maxPauseMs: 60_000,
}

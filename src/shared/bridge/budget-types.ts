import type { LimitScope } from '../domain/profile'
import type { Billing } from '../domain/billing'

/** What the limiter and the height watcher tell the renderer: budget left, and the chains' heads. */

export interface LimiterState {
  profileId: string
  tokens: number
  burst: number
  ratePerSecond: number
  queued: { user: number; prefetch: number; background: number }
  inFlight: number
  usedToday: number
  quotaPerDay: number
  leftToday: number
  /** ISO time at which the daily count resets. */
  resetsAt: string
  /** Background work stops when less than this many requests are left. */
  reserve: number
  /** The unit every count here is in (billing.ts): requests, calls, or calls plus one per batch. */
  billing?: Billing
  throttled: boolean
  /** What the profile's limits apply to (`Limits.scope`); the fields above are of one bucket. */
  scope?: LimitScope
  /**
   * Which bucket the fields describe when the scope splits them: a network name, 'data' or
   * 'rpc', or `<network>|<endpoint>`; the one with the least left today. Absent for 'key'.
   */
  scopeKey?: string
  /** ISO time until which the service told us to send nothing (at most 60 s ahead); absent when not paused. */
  pausedUntil?: string
  /**
   * The service refuses requests (2 or more 429 answers in a row, none accepted since):
   * since when and how many. Absent while it accepts them.
   */
  refusing?: { since: string; count: number }
}

export interface HeightView {
  network: string
  /** The extrapolated head while observations are trusted; else the last observed height. */
  height: string | null
  /** True while the height is extrapolated from the learned block time. */
  estimated: boolean
  /**
   * No extrapolation: the last observation failed, its confirmation is overdue by a few block
   * times, or the RPC endpoint is not answering (hidden window, offline, budget exhausted).
   * `height` is then the last observed one, seen at `observedAt`.
   */
  stale: boolean
  /** The last height a real answer gave (at `observedAt`). */
  observedHeight: string | null
  /**
   * Until when the extrapolated `height` may be shown: a few block times after the observation
   * (docs/decisions/connection-truth.md). Later, or when stale or null, show `observedHeight`
   * with its time instead.
   */
  liveUntil: string | null
  gasPriceWei: string | null
  /** When the gas price was read (a real `eth_gasPrice` answer); null with it. */
  gasObservedAt: string | null
  observedAt: string | null
  blockTimeMs: number | null
  /** The network's chain id (decimal, `eth_chainId`, read once: docs/decisions/chain-id-once.md); null until known. */
  chainId: string | null
}

import type { Priority } from '@shared/bridge/contract'
import type { Clock } from '../util/clock'
import type { Logger, Redact } from '../util/logger'

/**
 * The words every caller of the service uses (a request's options, a JSON-RPC call, an endpoint),
 * in a module of their own: the client, its transport, the log ranges, the limiters and the
 * watch check all name them, and none of them should have to import the client to do so.
 */

/** The two endpoints of a service (spec 4): the data API and the RPC endpoint. */
export type Endpoint = 'data' | 'rpc'

/** How the data API spells its balances path for a profile (spec 4.1 shows both). */
export type BalanceSpelling = 'balance' | 'balances'

export interface RpcCallSpec {
  method: string
  params: unknown[]
}

/** What a piece of work really cost, counted as it is sent (a caller's cost line reads it). */
export interface SpendMeter {
  requests: number
  units: number
}

export interface RequestOptions {
  priority: Priority | (() => Priority)
  /**
   * Drops the request while it waits (in the limiter's queue or a backoff). A request already
   * on the wire is left to finish: its quota is spent, and its answer still fills the cache.
   */
  signal?: AbortSignal
  /** Overrides `maxAttempts` for this request (background polls use 1). */
  attempts?: number
  /** Adds what was really sent: HTTP requests and the service's units (billing.ts), retries included. */
  meter?: SpendMeter
}

/**
 * What every hop of a profile's service calls carries besides the call: the redaction of the
 * key, the clock and the log. Made once by the client and handed down as one object (to the
 * sender, the data API, the RPC transport and the readers of answers), never by position.
 * A call's own context (priority, signal, attempts, meter) is its `RequestOptions`.
 */
export interface ServiceContext {
  readonly redact: Redact
  readonly clock: Clock
  readonly log?: Logger
}

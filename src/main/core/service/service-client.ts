import type { RpcBatchItem } from '@shared/bridge/contract'
import type { Profile } from '@shared/domain/profile'
import type { Limiter } from '../limiter/limiter'
import type { Logger, Redact } from '../util/logger'
import { systemClock, type Clock } from '../util/clock'
import type { LearntLimits } from './learnt-limits-store'
import { withDefaults } from '../util/options'
import { DataApi } from './data-api'
import { LogRanges } from './log-range'
import { RequestSender } from './request-sender'
import { RpcTransport } from './rpc-transport'
import { ConnectionState } from './connection-state'
import type { BalanceSpelling, Endpoint, RequestOptions, RpcCallSpec, ServiceContext } from './service-types'

export interface ServiceClientOptions {
  /** The profile as it is now (its addresses may change while the app runs). */
  profile: () => Profile
  /** The profile's API key; throws an `auth` AppError when none is set. */
  getKey: () => Promise<string>
  /** The one limiter of every request, or the one for a request's network and endpoint (`Limits.scope`). */
  limiter: Limiter | ((network: string, endpoint: Endpoint) => Limiter)
  /** Which spelling of the balances path works for this profile, remembered across runs. */
  spelling: { get(): BalanceSpelling | null; set(spelling: BalanceSpelling): void }
  redact: Redact
  log?: Logger
  clock?: Clock
  fetch?: typeof fetch
  /** Per attempt, headers and body. Default 15 s. */
  timeoutMs?: number
  /** Attempts for an idempotent request (the first included). Default 3. */
  maxAttempts?: number
  /** First backoff; doubles per retry, with jitter. Default 400 ms. */
  backoffMs?: number
  /** A `Retry-After` longer than this is reported instead of waited for. Default 10 s. */
  maxRetryWaitMs?: number
  /** Largest body accepted. Default 16 MiB. */
  maxBodyBytes?: number
  /** What real calls did per network and endpoint, read by the circuit breaker (default: this client's own). */
  connection?: ConnectionState
  random?: () => number
  /** Where batch sizes and log-range caps learnt are kept across runs (none: this session only). */
  learnt?: LearntLimits
}

export { MAX_BATCH_CALLS } from './batch-sizes'

/** The defaults of `ServiceClientOptions` (documented on each field). */
const CLIENT_DEFAULTS = {
  clock: systemClock,
  fetch: (...args: Parameters<typeof fetch>) => globalThis.fetch(...args),
  timeoutMs: 15_000,
  maxAttempts: 3,
  backoffMs: 400,
  maxRetryWaitMs: 10_000,
  maxBodyBytes: 16 * 1024 * 1024,
  random: Math.random,
}

/**
 * The service client of one profile: the data API (spec 4.1, 4.2, data-api.ts) and the RPC
 * endpoint (4.3, rpc-transport.ts), both sent by one RequestSender (request-sender.ts): every
 * attempt through the profile's limiter, idempotent requests retried a bounded number of times,
 * a request that might change state (eth_send*) never retried. The key goes only into the URL
 * handed to fetch; no message, log line or error carries it.
 */
export class ServiceClient {
  readonly #o: Required<Omit<ServiceClientOptions, 'log' | 'connection' | 'learnt'>> & Pick<ServiceClientOptions, 'log'>
  /** What real calls did per network and endpoint (connection-state.ts). */
  readonly connection: ConnectionState
  /** The data API (spec 4.1, 4.2): balances and transaction pages, called directly (no hop here). */
  readonly data: DataApi
  /** The JSON-RPC endpoint: calls, batches in the size it takes, refusals in the body. */
  readonly #rpc: RpcTransport
  /** `eth_getLogs` over any range, split to the provider's range cap (remembered per network). */
  readonly logs: LogRanges

  constructor(options: ServiceClientOptions) {
    this.#o = { ...options, ...withDefaults(CLIENT_DEFAULTS, options) }
    const o = this.#o
    this.connection = options.connection ?? new ConnectionState({ clock: o.clock })
    // The redaction, clock and log every hop of every call uses: made once, handed down as one.
    const context: ServiceContext = { redact: o.redact, clock: o.clock, log: o.log }
    const sender = new RequestSender({
      ...o,
      context,
      connection: this.connection,
      limiterOf: (network, endpoint) => this.#limiterOf(network, endpoint),
    })
    this.data = new DataApi({ sender, profile: o.profile, spelling: o.spelling, context })
    this.#rpc = new RpcTransport({
      post: ({ body, ...call }, request) =>
        sender.send(
          { ...call, endpoint: 'rpc', build: async (key) => this.#rpcRequest(call.network, key, body) },
          request,
        ),
      billing: () => o.profile().billing,
      profileId: () => o.profile().id,
      context,
      pause: (network, ms) => this.#limiterOf(network, 'rpc').pauseFor(ms),
      batchMemory: options.learnt?.batches,
    })
    this.logs = new LogRanges(
      (network, call, request) => this.#rpc.rpc(network, call, request),
      options.learnt?.logCaps,
    )
  }

  /** One JSON-RPC call; a JSON-RPC error object becomes an `rpc` AppError with code and data. */
  rpc(network: string, call: RpcCallSpec, options: RequestOptions): Promise<unknown> {
    return this.#rpc.rpc(network, call, options)
  }

  /** A JSON-RPC batch in one HTTP request, as given (the RPC console's); each call's outcome in call order. */
  rpcBatch(network: string, calls: RpcCallSpec[], options: RequestOptions): Promise<RpcBatchItem[]> {
    return this.#rpc.rpcBatch(network, calls, options)
  }

  /** Calls in as few requests as the endpoint takes (rpc-transport.ts); outcomes in call order. */
  rpcCalls(network: string, calls: RpcCallSpec[], options: RequestOptions): Promise<RpcBatchItem[]> {
    return this.#rpc.rpcCalls(network, calls, options)
  }

  /** Whether `network`'s RPC endpoint takes batches: null until one was tried this session. */
  batchSupport(network: string): boolean | null {
    return this.#rpc.batchSupport(network)
  }

  /** The batch size `network`'s endpoint takes as far as known (1: no batches; 100 while untried). */
  batchSize(network: string): number {
    return this.#rpc.batchSize(network)
  }

  /** What `calls` cost in the service's unit (the profile's billing), in the batch size the endpoint takes. */
  unitsFor(network: string, calls: number): number {
    return this.#rpc.unitsFor(network, calls)
  }

  #rpcRequest(network: string, key: string, body: string): { url: string; init: RequestInit } {
    const base = this.#o.profile().rpcUrl.replace(/\/+$/, '')
    return {
      url: `${base}/${encodeURIComponent(network)}/${encodeURIComponent(key)}`,
      init: { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body },
    }
  }

  #limiterOf(network: string, endpoint: Endpoint): Limiter {
    const given = this.#o.limiter
    return typeof given === 'function' ? given(network, endpoint) : given
  }
}

import { createHash } from 'node:crypto'
import type { z } from 'zod'
import type { RpcBatchItem } from '../../../shared/bridge/contract'
import { keySafeUrl, type Profile } from '../../../shared/domain/profile'
import {
  balancesResponseSchema,
  transactionsResponseSchema,
  type BalancesResponse,
  type TransactionsResponse,
} from '../../../shared/domain/service-schemas'
import { AppError } from '../util/app-error'
import type { Limiter } from '../limiter/limiter'
import type { Logger } from '../util/logger'
import { sleep, systemClock, type Clock } from '../util/clock'
import { transactionsQuery, type CursorParams } from './cursor'
import { httpAttempt, type HttpAnswer } from './http-attempt'
import { followRedirects, HopNotSent } from './redirects'
import { LogRanges } from './log-range'
import { RpcTransport } from './rpc-transport'
import type { BalanceSpelling, Endpoint, RequestOptions, RpcCallSpec } from './service-types'
import { errorForStatus, parseBody, MAX_SERVER_PAUSE_MS, utcClock } from './response-errors'
import { refusalInBody } from './body-refusals'
import { withDefaults } from '../util/options'

export interface ServiceClientOptions {
  /** The profile as it is now (its addresses may change while the app runs). */
  profile: () => Profile
  /** The profile's API key; throws an `auth` AppError when none is set. */
  getKey: () => Promise<string>
  /** The one limiter of every request, or the one for a request's network and endpoint (`Limits.scope`). */
  limiter: Limiter | ((network: string, endpoint: Endpoint) => Limiter)
  /** Which spelling of the balances path works for this profile, remembered across runs. */
  spelling: { get(): BalanceSpelling | null; set(spelling: BalanceSpelling): void }
  redact: (text: string) => string
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
  /** Called after every attempt: whether the service answered at all. */
  onReachability?: (reachable: boolean, reason: string | null) => void
  random?: () => number
}

export { BatchRefusedError } from './rpc-transport'
export { MAX_BATCH_CALLS } from './batch-sizes'

const RETRYABLE = new Set(['offline', 'timeout', 'server', 'rate-limited'])

/** A 24-bit fingerprint of the key: enough to notice a new key, useless for guessing one. */
export function keyTag(key: string): string {
  return createHash('sha256').update(`chainscope-quota:${key}`).digest('hex').slice(0, 6)
}

export function shortAddress(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`
}

/**
 * The service client of one profile: the data API (spec 4.1, 4.2) and the RPC endpoint (4.3),
 * every attempt through the profile's limiter. Idempotent requests are retried a bounded
 * number of times with backoff on network failures, timeouts, 5xx and rate-limit answers
 * (honouring `Retry-After`); a request that might change state (eth_send*) is never retried.
 * The key goes only into the URL handed to fetch; no message, log line or error carries it.
 */
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

export class ServiceClient {
  readonly #o: Required<Omit<ServiceClientOptions, 'log' | 'onReachability'>> &
    Pick<ServiceClientOptions, 'log' | 'onReachability'>
  /** The JSON-RPC endpoint: calls, batches in the size it takes, refusals in the body. */
  readonly #rpc: RpcTransport
  /** `eth_getLogs` over any range, split to the provider's range cap (remembered per network). */
  readonly logs: LogRanges

  constructor(options: ServiceClientOptions) {
    this.#o = { ...options, ...withDefaults(CLIENT_DEFAULTS, options) }
    this.#rpc = new RpcTransport({
      post: (network, body, what, idempotent, request, units, classify) =>
        this.#send(
          network,
          'rpc',
          what,
          idempotent,
          request,
          units,
          async (key) => this.#rpcRequest(network, key, body),
          classify,
        ),
      billing: () => this.#o.profile().billing,
      profileId: () => this.#o.profile().id,
      redact: this.#o.redact,
      clock: this.#o.clock,
      pause: (network, ms) => this.#limiterOf(network, 'rpc').pauseFor(ms),
      log: this.#o.log,
    })
    this.logs = new LogRanges((network, call, request) => this.#rpc.rpc(network, call, request))
  }

  async balances(network: string, address: string, options: RequestOptions): Promise<BalancesResponse> {
    const what = `the balances of ${shortAddress(address)} on ${network}`
    const remembered = this.#o.spelling.get()
    const first: BalanceSpelling = remembered ?? 'balance'
    try {
      const result = await this.#get(
        network,
        first,
        new URLSearchParams({ address }),
        balancesResponseSchema,
        what,
        options,
      )
      if (!remembered) this.#o.spelling.set(first)
      return result
    } catch (error) {
      // Spec 4.1 shows both spellings; a service that knows only the other one answers 404.
      if (!(error instanceof AppError && error.kind === 'not-found')) throw error
      const other: BalanceSpelling = first === 'balance' ? 'balances' : 'balance'
      const result = await this.#get(
        network,
        other,
        new URLSearchParams({ address }),
        balancesResponseSchema,
        what,
        options,
      )
      this.#o.spelling.set(other)
      this.#o.log?.info(`profile ${this.#o.profile().id}: the balances path is spelled "${other}"`)
      return result
    }
  }

  async transactions(
    network: string,
    address: string,
    page: CursorParams | null,
    options: RequestOptions,
  ): Promise<TransactionsResponse> {
    const what = `the transactions of ${shortAddress(address)} on ${network}`
    return this.#get(network, 'transactions', page, transactionsResponseSchema, what, options, address)
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

  async #get<S extends z.ZodType>(
    network: string,
    path: string,
    params: URLSearchParams | CursorParams | null,
    schema: S,
    what: string,
    options: RequestOptions,
    address?: string,
  ): Promise<z.output<S>> {
    const answer = await this.#send(
      network,
      'data',
      what,
      true,
      options,
      1,
      async (key) => {
        const query =
          params instanceof URLSearchParams
            ? new URLSearchParams(params)
            : transactionsQuery(address ?? '', key, params)
        query.set('api_key', key)
        const base = this.#o.profile().baseUrl.replace(/\/+$/, '')
        return {
          url: `${base}/api/v1/${encodeURIComponent(network)}/${path}?${query.toString()}`,
          // The spec's examples send this header on GETs too.
          init: { method: 'GET', headers: { 'content-type': 'application/json', accept: 'application/json' } },
        }
      },
      // A Blockscout-style API says "429 Too Many Requests" in a 200 body.
      (answer) => refusalInBody(answer, what, this.#o.clock.now(), this.#o.redact),
    )
    return parseBody(answer, schema, what, this.#o.redact)
  }

  #limiterOf(network: string, endpoint: Endpoint): Limiter {
    const given = this.#o.limiter
    return typeof given === 'function' ? given(network, endpoint) : given
  }

  /** Attempts until a 2xx answer, a non-retryable error or the attempt limit. */
  async #send(
    network: string,
    endpoint: Endpoint,
    what: string,
    idempotent: boolean,
    options: RequestOptions,
    /** What one attempt costs in the service's unit (billing.ts); the limiter takes that many. */
    units: number,
    build: (key: string) => Promise<{ url: string; init: RequestInit }>,
    /**
     * Reads every answer before the usual mapping: a refused batch, a refusal said in a 2xx body.
     * Null leaves a 2xx answer as the answer and any other to errorForStatus.
     */
    classify?: (answer: HttpAnswer) => AppError | null,
  ): Promise<HttpAnswer> {
    const o = this.#o
    const attempts = idempotent ? (options.attempts ?? o.maxAttempts) : 1
    for (let attempt = 1; ; attempt++) {
      const key = await o.getKey()
      // Per attempt: a retry after a change of the limits' scope uses the new bucket.
      const limiter = this.#limiterOf(network, endpoint)
      limiter.useKey(keyTag(key))
      const { url, init } = await build(key)
      // Defence in depth: a profile saved before this rule, or edited on disk, never sends the key in clear to the network.
      if (!keySafeUrl(url))
        throw new AppError(
          'invalid-input',
          `The profile's ${endpoint === 'rpc' ? 'RPC' : 'data API'} address uses plain http:// to another computer; Chainscope does not send the API key that way. Change it to https:// in Settings → Profiles.`,
          { field: endpoint === 'rpc' ? 'rpcUrl' : 'baseUrl' },
        )
      // Each redirect is a request of its own: a permit of its own, counted against the quota.
      const acquire = async () => {
        const held = await limiter.acquire({ priority: options.priority, signal: options.signal, cost: units })
        if (options.meter) {
          options.meter.requests += 1
          options.meter.units += units
        }
        return held
      }
      const permit = await acquire()
      let error: AppError
      try {
        const answer = await followRedirects(
          { url, init },
          async (hop, index) => {
            const held = index === 0 ? permit : await acquire().catch((e: unknown) => Promise.reject(new HopNotSent(e)))
            try {
              return await httpAttempt({
                ...hop,
                clock: o.clock,
                fetch: o.fetch,
                timeoutMs: o.timeoutMs,
                maxBodyBytes: o.maxBodyBytes,
                what,
              })
            } finally {
              held.release()
            }
          },
          what,
          o.redact,
        )
        o.onReachability?.(true, null)
        const refused = classify?.(answer) ?? null
        const ok = answer.status >= 200 && answer.status < 300
        const limited = answer.status === 429 || refused?.kind === 'rate-limited'
        if (!limited) limiter.noteAccepted()
        if (ok && !refused) return answer
        error = refused ?? errorForStatus(answer, what, o.clock.now(), o.redact)
        if (limited) error = refusalOf(error, limiter.noteRefused())
      } catch (caught) {
        if (caught instanceof HopNotSent) throw caught.reason
        if (!(caught instanceof AppError)) throw caught
        if (caught.kind === 'offline') o.onReachability?.(false, caught.message)
        error = caught
      } finally {
        permit.release()
      }
      // Clamped: a Retry-After of years must not freeze the profile (README "Choices").
      if (error.kind === 'rate-limited')
        limiter.pauseFor(Math.min(error.details.retryAfterMs ?? 1000, MAX_SERVER_PAUSE_MS))
      if (error.kind === 'quota-exhausted') limiter.markQuotaExhausted()
      const wait =
        error.kind === 'rate-limited'
          ? (error.details.retryAfterMs ?? 1000)
          : o.backoffMs * 2 ** (attempt - 1) * (0.75 + o.random() / 2)
      const retry = RETRYABLE.has(error.kind) && attempt < attempts && wait <= o.maxRetryWaitMs
      o.log?.warn(
        `${what}: attempt ${attempt} failed (${error.kind}: ${o.redact(error.message)})${retry ? `; retrying in ${Math.round(wait)} ms` : ''}`,
      )
      if (!retry) throw error
      await sleep(o.clock, wait, options.signal)
    }
  }
}

/**
 * Repeated 429s are told as what they are (issue 11 item 3): from the second refusal in a
 * row, "the service is refusing requests (since HH:MM, N refused)". A quota refusal keeps its
 * own words.
 */
function refusalOf(error: AppError, refused: { since: number; count: number }): AppError {
  if (error.kind !== 'rate-limited' || refused.count < 2) return error
  return new AppError(
    'rate-limited',
    `The service is refusing requests (since ${utcClock(refused.since)}, ${refused.count} refused). ${error.message}`,
    error.details,
  )
}

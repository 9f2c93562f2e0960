import { createHash } from 'node:crypto'
import type { z } from 'zod'
import type { Priority, RpcBatchItem } from '../../../shared/bridge/contract'
import { keySafeUrl, type Profile } from '../../../shared/domain/profile'
import {
  balancesResponseSchema,
  rpcErrorObjectSchema,
  rpcResponseSchema,
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
import { LogRanges } from './log-range'
import { TooLargeError } from './log-range-refusal'
import {
  errorForStatus,
  parseBody,
  safeExcerpt,
  MAX_SERVER_PAUSE_MS,
  parseServiceJson,
  utcClock,
} from './response-errors'
import { withDefaults } from '../util/options'
import { requestUnits, unitsForCalls } from '../../../shared/domain/billing'

export type BalanceSpelling = 'balance' | 'balances'

/** The two endpoints of a service (spec 4): the data API and the RPC endpoint. */
export type Endpoint = 'data' | 'rpc'

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

/** What a piece of work really cost, counted as it is sent (a caller's cost line reads it). */
export interface SpendMeter {
  requests: number
  units: number
}

export interface RpcCallSpec {
  method: string
  params: unknown[]
}

const RETRYABLE = new Set(['offline', 'timeout', 'server', 'rate-limited'])

/** Most calls a batch carries: the sandbox's limit, and common among providers (some allow fewer; see rpcCalls). */
export const MAX_BATCH_CALLS = 100

/**
 * The endpoint refused a JSON-RPC batch as such: one error object or a single result instead
 * of a list, or an HTTP 4xx other than auth, timeout and rate limit. Many providers answer
 * batches like this (it is legal: batches are optional in practice), so `rpcCalls` falls back
 * to single calls; the RPC console shows it as the `rpc`/`protocol` error it is.
 */
export class BatchRefusedError extends AppError {}

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
  #rpcId = 0
  /** Per network: whether its RPC endpoint took (true) or refused (false) a batch. */
  readonly #batches = new Map<string, boolean>()
  /** `eth_getLogs` over any range, split to the provider's range cap (remembered per network). */
  readonly logs = new LogRanges((network, call, options) => this.rpc(network, call, options))

  constructor(options: ServiceClientOptions) {
    this.#o = { ...options, ...withDefaults(CLIENT_DEFAULTS, options) }
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
  async rpc(network: string, call: RpcCallSpec, options: RequestOptions): Promise<unknown> {
    const id = ++this.#rpcId
    const what = `${call.method} on ${network}`
    const tooLarge = (answer: HttpAnswer): AppError | null => {
      if (answer.status !== 413) return null
      // Some providers refuse a log range this way: its words say which (log-range-refusal.ts).
      const excerpt = safeExcerpt(answer.text, this.#o.redact, 300)
      return new TooLargeError(
        'protocol',
        `The RPC endpoint refused ${what} as too large (HTTP 413)${excerpt ? `: ${excerpt}` : '.'}`,
        { data: excerpt },
      )
    }
    const answer = await this.#send(
      network,
      'rpc',
      what,
      !isStateChanging(call.method),
      options,
      1,
      async (key) =>
        this.#rpcRequest(
          network,
          key,
          JSON.stringify({ jsonrpc: '2.0', id, method: call.method, params: call.params }),
        ),
      tooLarge,
    )
    const reply = parseBody(answer, rpcResponseSchema, what, this.#o.redact)
    if (reply.id !== id)
      throw new AppError(
        'protocol',
        `The RPC endpoint answered ${what} with the reply to another call (id ${String(reply.id)}).`,
      )
    const outcome = replyOutcome(reply, what)
    if ('error' in outcome) throw rpcError(call.method, outcome.error, this.#o.redact)
    return outcome.result
  }

  /** A JSON-RPC batch in one HTTP request; each call's outcome in call order. */
  async rpcBatch(network: string, calls: RpcCallSpec[], options: RequestOptions): Promise<RpcBatchItem[]> {
    const firstId = this.#rpcId + 1
    this.#rpcId += calls.length
    const what = `a batch of ${calls.length} RPC calls on ${network}`
    const body = calls.map((c, i) => ({ jsonrpc: '2.0', id: firstId + i, method: c.method, params: c.params }))
    const idempotent = calls.every((c) => !isStateChanging(c.method))
    const refusedStatus = (answer: HttpAnswer): AppError | null =>
      answer.status >= 400 && answer.status < 500 && ![401, 403, 408, 429].includes(answer.status)
        ? new BatchRefusedError('protocol', `The RPC endpoint refused ${what} (HTTP ${answer.status}).`, {
            data: safeExcerpt(answer.text, this.#o.redact),
          })
        : null
    const answer = await this.#send(
      network,
      'rpc',
      what,
      idempotent,
      options,
      requestUnits(this.#o.profile().billing, calls.length, true),
      async (key) => this.#rpcRequest(network, key, JSON.stringify(body)),
      refusedStatus,
    )
    let json: unknown
    try {
      json = parseServiceJson(answer, what, this.#o.redact)
    } catch (error) {
      if (error instanceof AppError) throw error
      // parseBody words the protocol error (HTML, cut short, malformed).
      parseBody(answer, rpcResponseSchema, what, this.#o.redact)
    }
    if (!Array.isArray(json)) {
      // A whole-batch failure comes back as one error object (e.g. -32600).
      const single = replyOutcome(parseBody(answer, rpcResponseSchema, what, this.#o.redact), what)
      if ('error' in single) {
        const err = rpcError('batch', single.error, this.#o.redact)
        throw new BatchRefusedError(err.kind, err.message, err.details)
      }
      throw new BatchRefusedError(
        'protocol',
        `The RPC endpoint answered ${what} with a single result instead of a list.`,
      )
    }
    const byId = new Map<unknown, z.infer<typeof rpcResponseSchema>>()
    for (const [i, item] of json.entries()) {
      const parsed = rpcResponseSchema.safeParse(item)
      if (!parsed.success) throw new AppError('protocol', `Reply ${i + 1} of ${what} is not a JSON-RPC response.`)
      byId.set(parsed.data.id, parsed.data)
    }
    return calls.map((c, i) => {
      const reply = byId.get(firstId + i)
      if (!reply)
        throw new AppError('protocol', `The RPC endpoint left ${c.method} (call ${i + 1}) of ${what} unanswered.`)
      const outcome = replyOutcome(reply, what)
      if ('error' in outcome) {
        const err = rpcError(c.method, outcome.error, this.#o.redact)
        return {
          ok: false,
          code: err.details.code ?? 0,
          message: err.message,
          ...(err.details.data !== undefined ? { data: err.details.data } : {}),
        }
      }
      return { ok: true, result: outcome.result }
    })
  }

  /** Whether `network`'s RPC endpoint takes batches: null until one was tried this session. */
  batchSupport(network: string): boolean | null {
    return this.#batches.get(network) ?? null
  }

  /**
   * What `calls` cost in the service's unit (the profile's billing): chunks of up to
   * MAX_BATCH_CALLS where batches work or are untried, single calls where the endpoint
   * refused them.
   */
  unitsFor(network: string, calls: number): number {
    const size = this.#batches.get(network) === false ? 1 : MAX_BATCH_CALLS
    return unitsForCalls(this.#o.profile().billing, calls, size)
  }

  /**
   * Calls as few requests as the endpoint allows: JSON-RPC batches of up to MAX_BATCH_CALLS, or
   * single calls once the endpoint has refused a batch. The refusal is detected once (the
   * first chunk is sent alone) and remembered for this profile and network, so a doomed batch
   * is never re-sent. Each call's outcome comes back in call order, like rpcBatch.
   */
  async rpcCalls(network: string, calls: RpcCallSpec[], options: RequestOptions): Promise<RpcBatchItem[]> {
    if (calls.length === 0) return []
    if (calls.length === 1 || this.#batches.get(network) === false) return this.#singles(network, calls, options)
    const chunks: RpcCallSpec[][] = []
    for (let i = 0; i < calls.length; i += MAX_BATCH_CALLS) chunks.push(calls.slice(i, i + MAX_BATCH_CALLS))
    let first: RpcBatchItem[]
    try {
      first = await this.rpcBatch(network, chunks[0]!, options)
    } catch (error) {
      if (!(error instanceof BatchRefusedError)) throw error
      this.#batches.set(network, false)
      this.#o.log?.info(
        `profile ${this.#o.profile().id}: ${network}'s RPC endpoint refuses batches (${error.message}); using single calls`,
      )
      return this.#singles(network, calls, options)
    }
    this.#batches.set(network, true)
    const rest = await Promise.all(chunks.slice(1).map((chunk) => this.rpcBatch(network, chunk, options)))
    return [first, ...rest].flat()
  }

  async #singles(network: string, calls: RpcCallSpec[], options: RequestOptions): Promise<RpcBatchItem[]> {
    return Promise.all(
      calls.map(async (call): Promise<RpcBatchItem> => {
        try {
          return { ok: true, result: await this.rpc(network, call, options) }
        } catch (error) {
          if (error instanceof AppError && error.kind === 'rpc') {
            return {
              ok: false,
              code: error.details.code ?? 0,
              message: error.message,
              ...(error.details.data !== undefined ? { data: error.details.data } : {}),
            }
          }
          throw error
        }
      }),
    )
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
    const answer = await this.#send(network, 'data', what, true, options, 1, async (key) => {
      const query =
        params instanceof URLSearchParams ? new URLSearchParams(params) : transactionsQuery(address ?? '', key, params)
      query.set('api_key', key)
      const base = this.#o.profile().baseUrl.replace(/\/+$/, '')
      return {
        url: `${base}/api/v1/${encodeURIComponent(network)}/${path}?${query.toString()}`,
        // The spec's examples send this header on GETs too.
        init: { method: 'GET', headers: { 'content-type': 'application/json', accept: 'application/json' } },
      }
    })
    return parseBody(answer, schema, what, this.#o.redact)
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
    /** Reads a non-2xx answer before the usual mapping (a refused batch); null leaves it to errorForStatus. */
    classify?: (answer: HttpAnswer) => AppError | null,
  ): Promise<HttpAnswer> {
    const o = this.#o
    const attempts = idempotent ? (options.attempts ?? o.maxAttempts) : 1
    for (let attempt = 1; ; attempt++) {
      const key = await o.getKey()
      // Per attempt: a retry after a change of the limits' scope uses the new bucket.
      const limiter = typeof o.limiter === 'function' ? o.limiter(network, endpoint) : o.limiter
      limiter.useKey(keyTag(key))
      const { url, init } = await build(key)
      // Defence in depth: a profile saved before this rule, or edited on disk, never sends the key in clear to the network.
      if (!keySafeUrl(url))
        throw new AppError(
          'invalid-input',
          `The profile's ${endpoint === 'rpc' ? 'RPC' : 'data API'} address uses plain http:// to another computer; Chainscope does not send the API key that way. Change it to https:// in Settings → Profiles.`,
          { field: endpoint === 'rpc' ? 'rpcUrl' : 'baseUrl' },
        )
      const permit = await limiter.acquire({ priority: options.priority, signal: options.signal, cost: units })
      if (options.meter) {
        options.meter.requests += 1
        options.meter.units += units
      }
      let error: AppError
      try {
        const answer = await httpAttempt({
          url,
          init,
          clock: o.clock,
          fetch: o.fetch,
          timeoutMs: o.timeoutMs,
          maxBodyBytes: o.maxBodyBytes,
          what,
        })
        o.onReachability?.(true, null)
        if (answer.status !== 429) limiter.noteAccepted()
        if (answer.status >= 200 && answer.status < 300) return answer
        error = classify?.(answer) ?? errorForStatus(answer, what, o.clock.now(), o.redact)
        if (answer.status === 429) error = refusalOf(error, limiter.noteRefused())
      } catch (caught) {
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

type RpcError = z.infer<typeof rpcErrorObjectSchema>

/** A reply carries exactly one of `result` and a well-formed `error` (JSON-RPC 2.0, section 5). */
function replyOutcome(reply: Record<string, unknown>, what: string): { result: unknown } | { error: RpcError } {
  if (reply.error !== undefined && reply.error !== null) {
    const error = rpcErrorObjectSchema.safeParse(reply.error)
    if (!error.success)
      throw new AppError('protocol', `The RPC endpoint answered ${what} with a malformed error object.`)
    return { error: error.data }
  }
  if (!('result' in reply))
    throw new AppError('protocol', `The RPC endpoint answered ${what} with neither a result nor an error.`)
  return { result: reply.result }
}

/** Sending a transaction is not idempotent: a retry could send it twice. */
function isStateChanging(method: string): boolean {
  return /^eth_(send|submit)/.test(method)
}

function rpcError(method: string, error: RpcError, redact: (s: string) => string): AppError {
  const message = redact(error.message).slice(0, 300)
  return new AppError('rpc', `${method} failed: ${message} (JSON-RPC error ${error.code})`, {
    code: error.code,
    ...(error.data !== undefined ? { data: error.data } : {}),
  })
}

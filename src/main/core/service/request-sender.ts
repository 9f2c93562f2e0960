import { createHash } from 'node:crypto'
import { keySafeUrl } from '@shared/domain/profile'
import { AppError } from '../util/app-error'
import type { Limiter } from '../limiter/limiter'
import { sleep } from '../util/clock'
import { httpAttempt, type HttpAnswer } from './http-attempt'
import { followRedirects, HopNotSent } from './redirects'
import { errorForStatus, MAX_SERVER_PAUSE_MS, utcClock } from './response-errors'
import type { Endpoint, RequestOptions, ServiceContext } from './service-types'
import { admit } from './circuit-breaker'
import type { CallOutcome, ConnectionState } from './connection-state'

export interface RequestSenderOptions {
  getKey: () => Promise<string>
  /** The limiter of a request's network and endpoint (the client resolves `Limits.scope`). */
  limiterOf: (network: string, endpoint: Endpoint) => Limiter
  /** The redaction, clock and log every hop of a call uses. */
  context: ServiceContext
  fetch: typeof fetch
  timeoutMs: number
  maxAttempts: number
  backoffMs: number
  maxRetryWaitMs: number
  maxBodyBytes: number
  /** What real calls did, per network and endpoint; its breaker decides whether an attempt goes. */
  connection: ConnectionState
  random: () => number
}

/** One HTTP request as built for a key: the key goes only into this URL, handed to fetch. */
export type BuildRequest = (key: string) => Promise<{ url: string; init: RequestInit }>

/**
 * One service call, described once (docs/style.md rule 16): where it goes, what it is in words,
 * whether it may be retried, what an attempt costs, how its request is built for the key and
 * how its answers are read. Its context for this call (priority, signal, attempts, meter)
 * travels beside it as `RequestOptions`.
 */
export interface ServiceCall {
  network: string
  endpoint: Endpoint
  /** The call in words, for messages and the log: "the balances of 0x12…34 on alpha". */
  what: string
  /** A read that may be retried; one that might change state (eth_send*) is sent once. */
  idempotent: boolean
  /** What one attempt costs in the service's unit (billing.ts); the limiter takes that many. */
  units: number
  build: BuildRequest
  /**
   * Reads every answer before the usual mapping: a refused batch, a refusal said in a 2xx body.
   * Absent (or null from it) leaves a 2xx answer as the answer and any other to errorForStatus.
   */
  classify?: (answer: HttpAnswer) => AppError | null
}

// Not 'timeout': a call that hung for its whole deadline says the service is not answering; the
// breaker (circuit-breaker.ts) decides when to try again, one probe at a time.
const RETRYABLE = new Set(['offline', 'server', 'rate-limited'])

/** A 24-bit fingerprint of the key: enough to notice a new key, useless for guessing one. */
function keyTag(key: string): string {
  return createHash('sha256').update(`chainscope-quota:${key}`).digest('hex').slice(0, 6)
}

/**
 * How every request of a profile goes out, to either endpoint: through the limiter (a permit
 * per attempt and per redirect hop, counted against the quota), retried a bounded number of
 * times with backoff on network failures, timeouts, 5xx and rate-limit answers (honouring
 * `Retry-After`); a request that might change state is sent once.
 */
export class RequestSender {
  readonly #o: RequestSenderOptions

  constructor(options: RequestSenderOptions) {
    this.#o = options
  }

  /** Attempts until a 2xx answer, a non-retryable error or the attempt limit. */
  async send(call: ServiceCall, options: RequestOptions): Promise<HttpAnswer> {
    const o = this.#o
    const ctx = o.context
    const attempts = call.idempotent ? (options.attempts ?? o.maxAttempts) : 1
    for (let attempt = 1; ; attempt++) {
      const tried = await this.#attempt(call, options)
      if ('answer' in tried) return tried.answer
      const { error } = tried
      const wait = this.#retryWait(call, tried, attempt)
      const retry = RETRYABLE.has(error.kind) && attempt < attempts && wait <= o.maxRetryWaitMs
      ctx.log?.warn(
        `${call.what}: attempt ${attempt} failed (${error.kind}: ${ctx.redact(error.message)})${retry ? `; retrying in ${Math.round(wait)} ms` : ''}`,
      )
      if (!retry) throw error
      await sleep(ctx.clock, wait, options.signal)
    }
  }

  /**
   * One attempt: the key, the breaker, a permit, the request and its redirects, the answer read.
   * A 2xx answer nothing refuses is the answer; an error a retry may mend is returned with the
   * limiter it went through; any other is thrown.
   */
  async #attempt(call: ServiceCall, options: RequestOptions): Promise<{ answer: HttpAnswer } | Failed> {
    const { network, endpoint, what, units, build, classify } = call
    const o = this.#o
    const ctx = o.context
    const key = await o.getKey()
    // Per attempt: a retry after a change of the limits' scope uses the new bucket.
    const limiter = o.limiterOf(network, endpoint)
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
    // The breaker first: while the endpoint is not answering, nothing is counted or sent.
    const ticket = await admit(o.connection, network, endpoint, options.signal)
    const report = (outcome: CallOutcome | null): void => {
      if (!outcome) return
      o.connection.report(network, endpoint, outcome.kind === 'failed' ? { ...outcome, probe: ticket.probe } : outcome)
    }
    let error: AppError
    try {
      const permit = await acquire().catch((e: unknown) => {
        // Only a used-up quota says something of the service here (a queue deadline does not).
        if (e instanceof AppError && e.kind === 'quota-exhausted') report(outcomeOfError(e, ctx.clock.now()))
        throw e
      })
      const back = o.connection.leaving(network, endpoint)
      try {
        const answer = await followRedirects(
          { url, init },
          async (hop, index) => {
            const held = index === 0 ? permit : await acquire().catch((e: unknown) => Promise.reject(new HopNotSent(e)))
            try {
              return await httpAttempt({
                ...hop,
                clock: ctx.clock,
                fetch: o.fetch,
                timeoutMs: o.timeoutMs,
                maxBodyBytes: o.maxBodyBytes,
                what,
              })
            } finally {
              held.release()
            }
          },
          { what, redact: ctx.redact },
        )
        const refused = classify?.(answer) ?? null
        const ok = answer.status >= 200 && answer.status < 300
        const limited = answer.status === 429 || refused?.kind === 'rate-limited'
        if (!limited) limiter.noteAccepted()
        if (ok && !refused) {
          report({ kind: 'answered' })
          return { answer }
        }
        error = refused ?? errorForStatus(answer, what, ctx)
        report(outcomeOfError(error, ctx.clock.now()) ?? { kind: 'answered' })
        if (limited) error = refusalOf(error, limiter.noteRefused())
      } catch (caught) {
        if (caught instanceof HopNotSent) throw caught.reason
        if (!(caught instanceof AppError)) throw caught
        report(outcomeOfError(caught, ctx.clock.now()))
        error = caught
      } finally {
        back()
        permit.release()
      }
    } finally {
      ticket.done()
    }
    return { error, limiter }
  }

  /** How long before the next attempt may go; a rate limit pauses the limiter, a used-up quota marks it. */
  #retryWait({ network, endpoint }: ServiceCall, { error, limiter }: Failed, attempt: number): number {
    const o = this.#o
    // Clamped: a Retry-After of years must not freeze the profile (docs/decisions/service-edges.md).
    if (error.kind === 'rate-limited')
      limiter.pauseFor(Math.min(error.details.retryAfterMs ?? 1000, MAX_SERVER_PAUSE_MS))
    if (error.kind === 'quota-exhausted') limiter.markQuotaExhausted()
    const backoff =
      error.kind === 'rate-limited'
        ? (error.details.retryAfterMs ?? 1000)
        : o.backoffMs * 2 ** (attempt - 1) * (0.75 + o.random() / 2)
    // An open breaker lets no attempt go before its next try: the retry waits for it (and is
    // then its probe), or is not made when that is further off than a retry may wait.
    const opensAt = o.connection.record(network, endpoint).nextRetryAt
    return Math.max(backoff, opensAt === null ? 0 : opensAt - o.context.clock.now())
  }
}

/** An attempt that failed in a way a retry may mend, with the limiter it went through. */
interface Failed {
  error: AppError
  limiter: Limiter
}

/**
 * What an error says of the service's health: connection failures and timeouts are failures
 * the breaker counts; a 5xx answer a failure it does not (the service answers); 401/403 a
 * refusal; a used-up quota its own state; null for what says nothing (a cancelled call).
 */
function outcomeOfError(error: AppError, nowMs: number): CallOutcome | null {
  switch (error.kind) {
    case 'offline':
      return { kind: 'failed', reason: error.message, timedOut: false }
    case 'server':
      return { kind: 'failed', reason: error.message, timedOut: false, heard: true }
    case 'timeout':
      return { kind: 'failed', reason: error.message, timedOut: true }
    case 'auth':
      return { kind: 'refused', reason: error.message }
    case 'quota-exhausted':
      return { kind: 'quota', untilMs: nowMs + (error.details.retryAfterMs ?? 0), reason: error.message }
    case 'cancelled':
    case 'offline-by-choice':
      return null
    default:
      return { kind: 'answered' }
  }
}

/**
 * Repeated 429s are told as what they are: from the second refusal in a row, "the service is
 * refusing requests (since HH:MM, N refused)". A quota refusal keeps its own words.
 */
function refusalOf(error: AppError, refused: { since: number; count: number }): AppError {
  if (error.kind !== 'rate-limited' || refused.count < 2) return error
  return new AppError(
    'rate-limited',
    `The service is refusing requests (since ${utcClock(refused.since)}, ${refused.count} refused). ${error.message}`,
    error.details,
  )
}

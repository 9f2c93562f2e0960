import type { z } from 'zod'
import type { RpcBatchItem } from '@shared/bridge/contract'
import { requestUnits, unitsForCalls, type Billing } from '@shared/domain/billing'
import { rpcResponseSchema } from '@shared/domain/service-schemas'
import { AppError } from '../util/app-error'
import { BatchSizes, type BatchSizesMemory } from './batch-sizes'
import { refusalInBody, rpcRefusal, rpcRefusalError } from './body-refusals'
import type { HttpAnswer } from './http-attempt'
import { logRangeRefusal, TooLargeError } from './log-range-refusal'
import { isMethodRefusal } from './method-refusal'
import { MAX_RPC_JSON_DEPTH, parseBody, parseServiceJson, safeExcerpt } from './response-errors'
import {
  BatchRefusedError,
  isStateChanging,
  itemOf,
  jsonRpcErrorIn,
  replyOutcome,
  rpcError,
  sizeRefusalInList,
} from './rpc-replies'
import type { ServiceCall } from './request-sender'
import type { RequestOptions, RpcCallSpec, ServiceContext } from './service-types'

export { BatchRefusedError }

/**
 * One JSON-RPC body through the client's limiter, retries and reachability: the HTTP answer,
 * or the typed error of the last attempt. `classify` reads every answer first (a 2xx too) and
 * may call it a failure (a refusal said in the body, a refused batch).
 */
export type RpcPost = (call: RpcPostCall, options: RequestOptions) => Promise<HttpAnswer>

/** A call to the RPC endpoint: the service call without its endpoint and builder, with its body. */
export type RpcPostCall = Omit<ServiceCall, 'endpoint' | 'build'> & { body: string }

export interface RpcTransportOptions {
  post: RpcPost
  billing: () => Billing
  profileId: () => string
  /** The redaction, clock and log of the profile's service calls. */
  context: ServiceContext
  /** Holds back every request of `network`'s bucket for `ms` (items refused for rate inside a batch). */
  pause: (network: string, ms: number) => void
  /** Where the batch sizes learnt are kept across runs (none: this session only). */
  batchMemory?: BatchSizesMemory
}

/** Rounds of retrying the items of a batch refused for rate inside an HTTP 200 answer. */
const ITEM_RETRY_ROUNDS = 2
const ITEM_PAUSE_MS = 1000

/**
 * The JSON-RPC side of a profile's service (spec 4.3): single calls, batches, and `rpcCalls`,
 * which sends a list of calls in as few requests as the endpoint takes, splitting batches it
 * refuses for their size and retrying alone the items it refused for rate.
 */
export class RpcTransport {
  readonly #o: RpcTransportOptions
  readonly #sizes: BatchSizes
  #rpcId = 0

  constructor(options: RpcTransportOptions) {
    this.#o = options
    this.#sizes = new BatchSizes(options.context.clock, options.batchMemory)
  }

  /** One JSON-RPC call; a JSON-RPC error object becomes an `rpc` AppError with code and data. */
  async rpc(network: string, call: RpcCallSpec, options: RequestOptions): Promise<unknown> {
    const id = ++this.#rpcId
    const what = `${call.method} on ${network}`
    const classify = (answer: HttpAnswer): AppError | null => {
      // Some providers send a call's JSON-RPC error with HTTP 400 or 422: it is the call's answer
      // (a log range too wide, say), or a rate or quota refusal when its code says so.
      const said = answer.status === 400 || answer.status === 422 ? jsonRpcErrorIn(answer.text) : null
      // A method the plan does not include, refused with HTTP 403 (method-refusal.ts): the call's answer.
      const planRefusal = answer.status === 403 ? jsonRpcErrorIn(answer.text) : null
      if (planRefusal && isMethodRefusal(planRefusal)) return rpcError(call.method, planRefusal, this.#o.context.redact)
      if (said)
        return rpcRefusalError(said, what, this.#o.context) ?? rpcError(call.method, said, this.#o.context.redact)
      if (answer.status === 413) {
        // Some providers refuse a log range this way: its words say which (log-range-refusal.ts).
        const excerpt = safeExcerpt(answer.text, this.#o.context.redact, 300)
        return new TooLargeError(
          'protocol',
          `The RPC endpoint refused ${what} as too large (HTTP 413)${excerpt ? `: ${excerpt}` : '.'}`,
          { data: excerpt },
        )
      }
      return refusalInBody(answer, what, this.#o.context)
    }
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: call.method, params: call.params })
    const answer = await this.#o.post(
      { network, body, what, idempotent: !isStateChanging(call.method), units: 1, classify },
      options,
    )
    const reply = parseBody(answer, rpcResponseSchema, what, { ...this.#o.context, maxDepth: MAX_RPC_JSON_DEPTH })
    if (reply.id !== id)
      throw new AppError(
        'protocol',
        `The RPC endpoint answered ${what} with the reply to another call (id ${String(reply.id)}).`,
      )
    const outcome = replyOutcome(reply, what)
    if ('error' in outcome) throw rpcError(call.method, outcome.error, this.#o.context.redact)
    return outcome.result
  }

  /** A JSON-RPC batch in one HTTP request; each call's outcome in call order. */
  async rpcBatch(network: string, calls: RpcCallSpec[], options: RequestOptions): Promise<RpcBatchItem[]> {
    const firstId = this.#rpcId + 1
    this.#rpcId += calls.length
    const what = `a batch of ${calls.length} RPC calls on ${network}`
    const body = calls.map((c, i) => ({ jsonrpc: '2.0', id: firstId + i, method: c.method, params: c.params }))
    const idempotent = calls.every((c) => !isStateChanging(c.method))
    const classify = (answer: HttpAnswer): AppError | null => {
      // Not a refusal of the batch: the key, the quota, an unknown network, a timeout, the rate.
      if (answer.status >= 400 && answer.status < 500 && ![401, 402, 403, 404, 408, 429].includes(answer.status))
        return new BatchRefusedError('protocol', `The RPC endpoint refused ${what} (HTTP ${answer.status}).`, {
          data: safeExcerpt(answer.text, this.#o.context.redact),
        })
      // One error object with a rate or quota code is about the whole request, not the batch.
      return refusalInBody(answer, what, this.#o.context)
    }
    const units = requestUnits(this.#o.billing(), calls.length, true)
    const answer = await this.#o.post(
      { network, body: JSON.stringify(body), what, idempotent, units, classify },
      options,
    )
    let json: unknown
    try {
      json = parseServiceJson(answer, what, { ...this.#o.context, maxDepth: MAX_RPC_JSON_DEPTH })
    } catch (error) {
      if (error instanceof AppError) throw error
      // parseBody words the protocol error (HTML, cut short, malformed).
      parseBody(answer, rpcResponseSchema, what, { ...this.#o.context, maxDepth: MAX_RPC_JSON_DEPTH })
    }
    if (!Array.isArray(json)) {
      // A whole-batch failure comes back as one error object (e.g. -32600 "batch too large"), or
      // as an object of the provider's own shape ({"error": "batch limit exceeded"}).
      const parsed = rpcResponseSchema.safeParse(json)
      if (!parsed.success)
        throw new BatchRefusedError(
          'protocol',
          `The RPC endpoint answered ${what} with a single object instead of a list.`,
          {
            data: safeExcerpt(answer.text, this.#o.context.redact),
          },
        )
      const single = replyOutcome(parsed.data, what)
      if ('error' in single) {
        const err = rpcError('batch', single.error, this.#o.context.redact)
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
    const refusal = sizeRefusalInList([...byId.values()], calls.length, what, this.#o.context.redact)
    if (refusal) throw refusal
    return calls.map((c, i) => {
      const reply = byId.get(firstId + i)
      if (!reply)
        throw new AppError('protocol', `The RPC endpoint left ${c.method} (call ${i + 1}) of ${what} unanswered.`)
      const outcome = replyOutcome(reply, what)
      return 'error' in outcome
        ? itemOf(rpcError(c.method, outcome.error, this.#o.context.redact))
        : { ok: true, result: outcome.result }
    })
  }

  /** Whether `network`'s RPC endpoint takes batches: null until one was tried this session. */
  batchSupport(network: string): boolean | null {
    return this.#sizes.support(network)
  }

  /** The batch size `network`'s endpoint takes as far as known (1: no batches; 100 while untried). */
  batchSize(network: string): number {
    return this.#sizes.planned(network)
  }

  /** What `calls` cost in the service's unit, in batches of the size the endpoint takes now. */
  unitsFor(network: string, calls: number): number {
    return unitsForCalls(this.#o.billing(), calls, this.#sizes.planned(network))
  }

  /**
   * Calls as few requests as the endpoint allows, each call's outcome in call order. Batches
   * go in the size the endpoint takes (batch-sizes.ts): one refused for its size is split and
   * sent again; where batches are not taken at all, single calls. Items refused for rate inside
   * an answered batch are sent again, alone, after a pause; the others are kept.
   */
  async rpcCalls(network: string, calls: RpcCallSpec[], options: RequestOptions): Promise<RpcBatchItem[]> {
    const job: CallsJob = { network, calls, options, out: new Array<RpcBatchItem>(calls.length) }
    await this.#send(
      job,
      calls.map((_, i) => i),
      0,
    )
    return job.out
  }

  /** Sends the calls at `indices` in batches of the size planned now, filling `job.out`. */
  async #send(job: CallsJob, indices: number[], round: number): Promise<void> {
    if (indices.length === 0) return
    const { size, alone } =
      indices.length === 1 ? { size: 1, alone: false } : this.#sizes.next(job.network, indices.length)
    const chunks: number[][] = []
    for (let i = 0; i < indices.length; i += size) chunks.push(indices.slice(i, i + size))
    if (alone && chunks.length > 1) {
      // Learn from one request whether this size is taken before sending the rest.
      await this.#chunk(job, chunks[0]!, round)
      await this.#send(job, chunks.slice(1).flat(), round)
      return
    }
    await Promise.all(chunks.map((chunk) => this.#chunk(job, chunk, round)))
  }

  async #chunk(job: CallsJob, indices: number[], round: number): Promise<void> {
    const { network, calls, options, out } = job
    if (indices.length === 1) {
      const i = indices[0]!
      out[i] = await this.#single(network, calls[i]!, options)
      return
    }
    let items: RpcBatchItem[]
    try {
      items = await this.rpcBatch(
        network,
        indices.map((i) => calls[i]!),
        options,
      )
    } catch (error) {
      if (!(error instanceof BatchRefusedError)) throw error
      if (await this.#logsRefused(job, indices, error)) return
      const verdict = this.#sizes.refused(network, indices.length, error)
      this.#o.context.log?.info(
        `profile ${this.#o.profileId()}: ${network}'s RPC endpoint refused a batch of ${indices.length} (${error.message}); ${verdict === 'none' ? 'using single calls' : `sending batches of ${verdict}`}`,
      )
      await this.#send(job, indices, round)
      return
    }
    this.#sizes.worked(network, indices.length)
    const again: number[] = []
    items.forEach((item, k) => {
      const i = indices[k]!
      out[i] = item
      if (!item.ok && round < ITEM_RETRY_ROUNDS && rpcRefusal(item) === 'rate') again.push(i)
    })
    if (again.length === 0) return
    this.#o.context.log?.info(
      `${network}: ${again.length} of ${indices.length} calls in a batch were refused for rate; sending them again after a pause`,
    )
    this.#o.pause(network, ITEM_PAUSE_MS)
    try {
      await this.#send(job, again, round + 1)
    } catch (error) {
      // Refused again as a whole: those items keep the refusal they had; the others are kept.
      if (!(error instanceof AppError && (error.kind === 'rate-limited' || error.kind === 'quota-exhausted')))
        throw error
    }
  }

  /**
   * A batch refused as a whole in words about a log range (a gateway's HTTP 413 "eth_getLogs …
   * limited to a 10,000 blocks range"): the batch's size was fine, its `eth_getLogs` were not.
   * Those calls get the refusal as their outcome (the caller splits their ranges); the others
   * are sent again; the batch size learnt is left alone. False when the words are not that.
   */
  async #logsRefused(job: CallsJob, indices: number[], error: BatchRefusedError): Promise<boolean> {
    const logs = indices.filter((i) => job.calls[i]!.method === 'eth_getLogs')
    const data = error.details.data
    const words = `${error.message} ${typeof data === 'string' ? data : ''}`
    // Read as an RPC error, the words must name a range (an HTTP 413 alone could be the batch's size).
    const refusal = new AppError('rpc', words)
    if (logs.length === 0 || !logRangeRefusal(refusal)) return false
    for (const i of logs) job.out[i] = itemOf(refusal)
    await this.#send(
      job,
      indices.filter((i) => !logs.includes(i)),
      0,
    )
    return true
  }

  async #single(network: string, call: RpcCallSpec, options: RequestOptions): Promise<RpcBatchItem> {
    try {
      return { ok: true, result: await this.rpc(network, call, options) }
    } catch (error) {
      // An eth_getLogs refused for its range with a whole-request answer (HTTP 413) is still that
      // call's outcome: the caller reads its words and splits the range.
      if (
        error instanceof AppError &&
        (error.kind === 'rpc' || (call.method === 'eth_getLogs' && logRangeRefusal(error)))
      )
        return itemOf(error)
      throw error
    }
  }
}

/** One `rpcCalls`: its calls, and their outcomes as they come in. */
interface CallsJob {
  network: string
  calls: RpcCallSpec[]
  options: RequestOptions
  out: RpcBatchItem[]
}

import { json, type Reply } from './http'

/**
 * The sandbox playing a real provider (all off by default; each a CLI flag, sandbox/README.md):
 * how it counts (per request, per call, per call plus one per batch), a batch cap and the form
 * its refusal takes, an `eth_getLogs` block-range cap in one provider's words, no `finalized` or
 * `safe` tag, Infura's HTTP 402 at the daily quota, and calls refused for rate inside an
 * answered batch. The texts are the providers' own (see the client's log-range-refusal.ts).
 */
export const BILLING_MODES = ['request', 'call', 'call-plus-batch'] as const
export type SandboxBilling = (typeof BILLING_MODES)[number]

export const BATCH_REFUSALS = ['geth', 'besu', 'http-413', 'non-array'] as const
export type BatchRefusal = (typeof BATCH_REFUSALS)[number]

export const LOG_DIALECTS = ['max-range', 'too-wide', 'http-413', 'results', 'alchemy', 'infura'] as const
export type LogDialect = (typeof LOG_DIALECTS)[number]

/**
 * Which call-trace method the provider answers: geth's `debug_traceTransaction` with the
 * callTracer (anvil's own), the Erigon/Nethermind `trace_transaction` (anvil answers it too),
 * or neither, refused in two providers' words.
 */
export const TRACE_MODES = ['callTracer', 'trace_transaction', 'none'] as const
export type TraceMode = (typeof TRACE_MODES)[number]

export interface ProviderModes {
  billing: SandboxBilling
  /** Most calls a batch may carry; a larger one is refused in `batchRefusal`'s form. */
  batchCap: number
  batchRefusal: BatchRefusal
  /** Most blocks one `eth_getLogs` may span; null: any range. */
  logCap: number | null
  logDialect: LogDialect
  /** `finalized` and `safe` are unknown tags (some nodes and L2s). */
  noFinalized: boolean
  /** The daily quota is refused with Infura's HTTP 402 (-33000) instead of a 429. */
  quota402: boolean
  /** Every n-th call inside a batch is refused for rate (-32012 "credits limited to 6000/sec"); null: none. */
  itemErrorEvery: number | null
  traces: TraceMode
}

export const DEFAULT_MODES: ProviderModes = {
  billing: 'request',
  batchCap: 100,
  batchRefusal: 'geth',
  logCap: null,
  logDialect: 'max-range',
  noFinalized: false,
  quota402: false,
  itemErrorEvery: null,
  traces: 'callTracer',
}

type Id = string | number | null
export interface RpcError {
  jsonrpc: '2.0'
  id: Id
  error: { code: number; message: string; data?: unknown }
}

const err = (id: Id, code: number, message: string, data?: unknown): RpcError => ({
  jsonrpc: '2.0',
  id,
  error: { code, message, ...(data !== undefined ? { data } : {}) },
})
const hex = (n: number): string => `0x${n.toString(16)}`

/**
 * What a request costs in the sandbox's billing: 1 per HTTP request, or per call (plus one per
 * batch). A batch refused for its size is billed in full too, as the strictest provider would:
 * the client counts it so (it cannot know the refusal before sending), and the two agree.
 */
export function requestUnits(body: string, modes: ProviderModes): number {
  if (modes.billing === 'request') return 1
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return 1
  }
  if (!Array.isArray(parsed)) return 1
  if (parsed.length === 0) return 1
  return parsed.length + (modes.billing === 'call-plus-batch' ? 1 : 0)
}

/** The refusal of a batch over the cap, in the chosen form; null when the batch fits. */
export function batchCapReply(calls: number, modes: ProviderModes): Reply | null {
  if (calls <= modes.batchCap) return null
  switch (modes.batchRefusal) {
    case 'geth':
      return json(200, err(null, -32600, 'batch too large'))
    case 'besu':
      return json(200, err(null, -32005, 'Number of requests exceeds max batch size'))
    case 'http-413':
      return { status: 413, contentType: 'text/plain; charset=utf-8', body: 'Request Entity Too Large\n' }
    case 'non-array':
      return json(200, { jsonrpc: '2.0', id: null, result: null })
  }
}

/** The HTTP 402 Infura answers once the day's quota is used up. */
export function quota402Reply(): Reply {
  return json(402, err(null, -33000, 'daily request count exceeded, request rate limited'))
}

/** A call refused for rate inside an answered batch (QuickNode's credits). */
export function itemRateError(id: Id): RpcError {
  return err(id, -32012, 'credits limited to 6000/sec')
}

/** A block tag the sandbox does not know in this mode: the error a node without it gives. */
export function tagRefusal(id: Id, method: string, params: unknown, modes: ProviderModes): RpcError | null {
  if (!modes.noFinalized || !Array.isArray(params)) return null
  const tag = params.find((p) => p === 'finalized' || p === 'safe')
  if (tag === undefined || !/^eth_/.test(method)) return null
  return err(id, -32602, `invalid argument 0: unknown block tag "${String(tag)}"`)
}

/** The blocks an `eth_getLogs` filter spans, with tags read against `head`; null when it names a block hash. */
export function logSpan(params: unknown, head: number): { from: number; to: number } | null {
  const filter = Array.isArray(params) && typeof params[0] === 'object' && params[0] !== null ? params[0] : {}
  const f = filter as Record<string, unknown>
  if (typeof f.blockHash === 'string') return null
  const block = (v: unknown): number => {
    if (typeof v === 'string' && /^0x[0-9a-f]+$/i.test(v)) return Number.parseInt(v, 16)
    return v === 'earliest' ? 0 : head
  }
  return { from: block(f.fromBlock), to: block(f.toBlock) }
}

/**
 * An `eth_getLogs` over more than the cap, refused in the chosen dialect; null when it fits.
 * HTTP 413 refuses the whole request (a gateway's answer), the others the one call.
 */
export function logCapRefusal(
  id: Id,
  span: { from: number; to: number },
  modes: ProviderModes,
): { reply: Reply } | { error: RpcError } | null {
  const cap = modes.logCap
  if (cap === null || span.to - span.from + 1 <= cap) return null
  const fits = `[${hex(span.from)}, ${hex(span.from + cap - 1)}]`
  switch (modes.logDialect) {
    case 'max-range':
      return { error: err(id, -32602, `query exceeds max block range ${cap}`) }
    case 'too-wide':
      return { error: err(id, -32600, 'block range is too wide') }
    case 'results':
      return { error: err(id, -32005, 'query returned more than 10000 results') }
    case 'alchemy':
      return {
        error: err(
          id,
          -32602,
          `Log response size exceeded. You can make eth_getLogs requests with up to a ${cap} block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters, this block range should work: ${fits}`,
        ),
      }
    case 'infura':
      return {
        error: err(id, -32005, `query returned more than 10000 results. Try with this block range ${fits}.`, {
          from: hex(span.from),
          to: hex(span.from + cap - 1),
          limit: 10000,
        }),
      }
    case 'http-413':
      return {
        reply: {
          status: 413,
          contentType: 'text/plain; charset=utf-8',
          body: `eth_getLogs and eth_newFilter are limited to a ${cap.toLocaleString('en-US')} blocks range\n`,
        },
      }
  }
}

const TRACE_METHODS = new Set(['debug_traceTransaction', 'trace_transaction'])

/**
 * A trace call in the mode's terms: null to forward it to the chain, else the refusal a node
 * or provider without it gives. The callTracer is the only debug tracer offered (no JS tracers,
 * no struct logs: a hosted provider's usual offer); `none` refuses one as a missing method and
 * the other in a plan's words. Not a trace method: `undefined`.
 */
export function traceCallRefusal(
  id: Id,
  method: string,
  params: unknown,
  modes: ProviderModes,
): RpcError | null | undefined {
  if (!TRACE_METHODS.has(method)) return undefined
  const wanted = method === 'debug_traceTransaction' ? 'callTracer' : 'trace_transaction'
  if (modes.traces === 'none' && method === 'trace_transaction')
    return err(id, -32000, 'trace_transaction is not supported on your plan: upgrade to use trace methods')
  if (modes.traces !== wanted) return err(id, -32601, `the method ${method} does not exist/is not available`)
  const options = Array.isArray(params) ? (params[1] as Record<string, unknown> | undefined) : undefined
  if (method === 'debug_traceTransaction' && (typeof options !== 'object' || options?.tracer !== 'callTracer'))
    return err(id, -32602, 'only the callTracer is offered: pass {"tracer":"callTracer"}')
  return null
}

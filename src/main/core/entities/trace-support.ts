import { z } from 'zod'
import type { RpcBatchItem } from '@shared/bridge/contract'
import type { RpcCallSpec, SpendMeter } from '../service/service-types'
import { AppError } from '../util/app-error'
import { isMethodRefusal } from '../service/method-refusal'
import { fromCallTracer, fromParityTraces, type TraceFrame } from './call-tree'

/** Which trace method a provider answers, or (`dialect` null) that it refused both, in its words. */
export const traceLearntSchema = z.object({
  dialect: z.enum(['callTracer', 'trace_transaction']).nullable(),
  refused: z.string().max(600).nullable(),
  at: z.number().int().min(0),
})
export type TraceLearnt = z.infer<typeof traceLearntSchema>
export type TraceDialect = NonNullable<TraceLearnt['dialect']>

/** What a profile learnt of its provider's traces, per network (learnt-limits-store.ts keeps it). */
export interface TracesMemory {
  load(network: string): TraceLearnt | null
  save(network: string, learnt: Omit<TraceLearnt, 'at'>): void
}

/** A refusal of traces is trusted for a week, then asked again (docs/decisions/entity-reads.md). */
export const TRACE_LEARNT_KEPT_MS = 7 * 24 * 60 * 60_000

/** A memory for this session only (no learnt-limits file). */
export function sessionTracesMemory(): TracesMemory {
  const kept = new Map<string, TraceLearnt>()
  return { load: (n) => kept.get(n) ?? null, save: (n, l) => void kept.set(n, { ...l, at: 0 }) }
}

/**
 * The provider's words when `item` refuses the method itself ("method not found", "not supported
 * on your plan", an HTTP 403 naming the plan); null for any other outcome (an unknown
 * transaction, a timeout), which is not learnt.
 */
export function traceRefusal(item: RpcBatchItem): string | null {
  if (item.ok) return null
  return isMethodRefusal(item) ? providerWords(item) : null
}

/** The provider's own words in a failed call's outcome (the transport wraps them in its wording). */
function providerWords(item: { message: string }): string {
  return item.message
    .replace(/^\S+ failed: /, '')
    .replace(/ \(JSON-RPC error -?\d+\)$/, '')
    .slice(0, 200)
}

const TRACE_CALLS: Record<TraceDialect, (hash: string) => RpcCallSpec> = {
  callTracer: (hash) => ({ method: 'debug_traceTransaction', params: [hash, { tracer: 'callTracer' }] }),
  trace_transaction: (hash) => ({ method: 'trace_transaction', params: [hash] }),
}

export type TraceOutcome = { dialect: TraceDialect; frames: TraceFrame[] } | { dialect: null; refused: string }

export interface TraceRead {
  /** Sends one call (the limiter, the profile's unit) and answers its outcome. */
  send: (call: RpcCallSpec, meter: SpendMeter) => Promise<RpcBatchItem>
  memory: TracesMemory
  network: string
  hash: string
  meter: SpendMeter
  /** Asks again even where both were refused before (the user's Refresh). */
  retry: boolean
}

/** In words: why internal transfers cannot be read through this provider. */
function refusedInWords(network: string, said: Partial<Record<TraceDialect, string>>): string {
  const parts = Object.entries(said).map(([d, w]) => `${TRACE_CALLS[d as TraceDialect]('').method} ("${w}")`)
  return `${network}'s provider refuses call traces — ${parts.join(' and ')} — so internal transfers cannot be read with this profile. Chainscope remembers this for a week; Refresh asks again.`
}

/**
 * The call tree of a transaction: the method the provider is known to answer first, then the
 * other; a refusal of both is remembered for the profile and answered in words, never thrown.
 */
export async function readTrace(r: TraceRead): Promise<TraceOutcome> {
  const learnt = r.memory.load(r.network)
  if (learnt && learnt.dialect === null && !r.retry) return { dialect: null, refused: learnt.refused ?? '' }
  const order: TraceDialect[] =
    learnt?.dialect === 'trace_transaction' ? ['trace_transaction', 'callTracer'] : ['callTracer', 'trace_transaction']
  const said: Partial<Record<TraceDialect, string>> = {}
  for (const dialect of order) {
    const item = await r.send(TRACE_CALLS[dialect](r.hash), r.meter)
    const refusal = traceRefusal(item)
    if (refusal !== null) {
      said[dialect] = refusal
      continue
    }
    // Not a refusal of the method: this transaction (unknown, or older than the state the node keeps).
    if (!item.ok)
      throw new AppError('rpc', `${r.network}'s node could not trace ${r.hash}: ${providerWords(item)}`, {
        code: item.code,
      })
    const frames = dialect === 'callTracer' ? fromCallTracer(item.result) : fromParityTraces(item.result)
    if (learnt?.dialect !== dialect) r.memory.save(r.network, { dialect, refused: null })
    return { dialect, frames }
  }
  const refused = refusedInWords(r.network, said)
  r.memory.save(r.network, { dialect: null, refused })
  return { dialect: null, refused }
}

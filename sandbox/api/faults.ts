import { z } from 'zod'
import type { Reply } from './http'
import type { Endpoint } from './stats'

/**
 * The fault switch (POST /__sandbox/faults, only with --admin) for the client's resilience
 * tests. A request "matches" when `match` is null or names its endpoint. With `error_rate`
 * set, that fraction of matching requests is selected, spread evenly and deterministically
 * (the n-th request is selected when floor(n·rate) steps up), so tests do not depend on
 * chance; without it every matching request is. A selected request waits `latency_ms`, then
 * gets `mode`; `times` counts selected requests and the fault clears itself at zero.
 */

export const faultModes = ['malformed', 'truncated', 'html', 'storm429', 'drop', 'status500'] as const
export type FaultMode = (typeof faultModes)[number]

export const faultsInputSchema = z.strictObject({
  latency_ms: z.number().int().min(0).max(120_000).optional(),
  error_rate: z.number().min(0).max(1).optional(),
  mode: z.enum(faultModes).nullable().optional(),
  times: z.number().int().min(0).nullable().optional(),
  match: z.enum(['balance', 'transactions', 'rpc']).nullable().optional(),
})
export type FaultsInput = z.infer<typeof faultsInputSchema>

export interface FaultState {
  latency_ms: number
  error_rate: number | null
  mode: FaultMode | null
  times: number | null
  match: Endpoint | null
}

export const NO_FAULTS: FaultState = { latency_ms: 0, error_rate: null, mode: null, times: null, match: null }

/** What to do with one request: wait, then either answer normally, replace or drop. */
export interface FaultDecision {
  latencyMs: number
  mode: FaultMode | null
}

export class FaultSwitch {
  private state: FaultState = { ...NO_FAULTS }
  private seen = 0

  get current(): FaultState {
    return { ...this.state }
  }

  set(input: FaultsInput): FaultState {
    this.state = {
      latency_ms: input.latency_ms ?? 0,
      error_rate: input.error_rate ?? null,
      mode: input.mode ?? null,
      times: input.times ?? null,
      match: input.match ?? null,
    }
    this.seen = 0
    return this.current
  }

  clear(): void {
    this.state = { ...NO_FAULTS }
    this.seen = 0
  }

  decide(endpoint: Endpoint): FaultDecision | null {
    const s = this.state
    if (s.latency_ms === 0 && s.mode === null) return null
    if (s.match !== null && s.match !== endpoint) return null
    if (s.times !== null && s.times <= 0) return null
    if (s.error_rate !== null) {
      const n = this.seen++
      if (Math.floor((n + 1) * s.error_rate) === Math.floor(n * s.error_rate)) return null
    }
    if (s.times !== null) {
      s.times -= 1
      if (s.times === 0) this.clear()
    }
    return { latencyMs: s.latency_ms, mode: s.mode }
  }
}

/** The reply a fault mode sends instead of (or cut from) the real one; null for "drop". */
export function faultReply(mode: FaultMode, real: () => Promise<Reply>): Promise<Reply> | null {
  switch (mode) {
    case 'malformed':
      return Promise.resolve({
        status: 200,
        contentType: 'application/json',
        body: '{"items": [{"token": <<this is not JSON>>',
      })
    case 'truncated':
      return real().then((r) => ({
        ...r,
        status: 200,
        body: r.body.slice(0, Math.max(1, Math.floor(r.body.length / 2))),
      }))
    case 'html':
      return Promise.resolve({
        status: 502,
        contentType: 'text/html; charset=utf-8',
        body: '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr><p>sandbox-proxy</p></body></html>',
      })
    case 'storm429':
      return Promise.resolve({
        status: 429,
        contentType: 'application/json',
        headers: { 'retry-after': '1' },
        body: JSON.stringify({
          error: 'rate_limited',
          limit: 'rate',
          message: 'too many requests (injected fault)',
          retry_after_s: 1,
        }),
      })
    case 'status500':
      return Promise.resolve({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'internal', message: 'internal error (injected fault)' }),
      })
    case 'drop':
      return null
  }
}

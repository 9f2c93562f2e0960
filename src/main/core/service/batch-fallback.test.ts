import { describe, expect, it } from 'vitest'
import { SPEC_LIMITS, type Profile } from '@shared/domain/profile'
import { Limiter } from '../limiter/limiter'
import { MemoryQuotaLedger } from '../limiter/quota-store'
import type { Billing } from '@shared/domain/billing'
import { MAX_BATCH_CALLS, ServiceClient } from './service-client'

/**
 * Batch refusal with every shape a provider answers a batch it does not
 * take: one error object, a single result, an HTTP 4xx. Detected once per network,
 * remembered, replaced by single calls; the cost model follows.
 */
type Answer = { status: number; body: string; contentType?: string }

function client(answerBatch: (calls: unknown[]) => Answer, billing: Billing = 'request') {
  const bodies: unknown[] = []
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body: unknown = JSON.parse(String(init?.body))
    bodies.push(body)
    const a: Answer = Array.isArray(body)
      ? answerBatch(body)
      : {
          status: 200,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: (body as { id: number }).id,
            result: `0x${bodies.length.toString(16)}`,
          }),
        }
    return new Response(a.body, { status: a.status, headers: { 'content-type': a.contentType ?? 'application/json' } })
  }
  const profile: Profile = {
    id: 'p',
    name: 'P',
    kind: 'service',
    baseUrl: 'https://svc.invalid',
    rpcUrl: 'https://svc.invalid/rpc',
    networks: [
      { name: 'alpha', label: 'Alpha' },
      { name: 'beta', label: 'Beta' },
    ],
    limits: SPEC_LIMITS,
    billing,
  }
  const clock = {
    now: () => Date.UTC(2030, 0, 1),
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (t: unknown) => clearTimeout(t as NodeJS.Timeout),
  }
  const limiter = new Limiter({
    profileId: 'p',
    limits: { ratePerSecond: 1000, burst: 1000, quotaPerDay: 100_000 },
    ledger: new MemoryQuotaLedger(),
    clock,
  })
  const c = new ServiceClient({
    profile: () => profile,
    getKey: async () => 'k',
    limiter,
    spelling: { get: () => null, set: () => {} },
    redact: (s) => s,
    clock,
    fetch,
    backoffMs: 1,
  })
  return { c, bodies, limiter }
}

const calls = (n: number) => Array.from({ length: n }, () => ({ method: 'eth_blockNumber', params: [] }))
const opts = { priority: 'user' as const }

describe('ServiceClient.rpcCalls', () => {
  it.each([
    [
      'one error object saying batches are not supported',
      ['batch', 'single', 'single', 'single'],
      (): Answer => ({
        status: 200,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: 'batch requests are not supported' },
        }),
      }),
    ],
    [
      'a single result instead of a list: halved, and a refused batch of 2 means none',
      ['batch', 'batch', 'single', 'single', 'single'],
      (): Answer => ({ status: 200, body: JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x1' }) }),
    ],
    [
      'HTTP 400 "batches not allowed"',
      ['batch', 'single', 'single', 'single'],
      (): Answer => ({ status: 400, body: 'batches not allowed', contentType: 'text/plain' }),
    ],
    [
      'HTTP 405 without words',
      ['batch', 'batch', 'single', 'single', 'single'],
      (): Answer => ({ status: 405, body: '' }),
    ],
  ] as const)(
    'detects a refused batch (%s) once, remembers it per network and calls singly',
    async (_name, sent, refuse) => {
      const { c, bodies } = client(refuse)
      expect(c.batchSupport('alpha')).toBeNull()
      expect(c.unitsFor('alpha', 5)).toBe(1)
      const first = await c.rpcCalls('alpha', calls(3), opts)
      expect(first.every((r) => r.ok)).toBe(true)
      // The refused batch (split once where the words do not say why), then three single calls.
      expect(bodies.map((b) => (Array.isArray(b) ? 'batch' : 'single')).sort()).toEqual([...sent].sort())
      expect(c.batchSupport('alpha')).toBe(false)
      expect(c.unitsFor('alpha', 5)).toBe(5)
      // Never re-sent on this network; the other network still tries batches.
      await c.rpcCalls('alpha', calls(2), opts)
      expect(bodies.slice(sent.length).every((b) => !Array.isArray(b))).toBe(true)
      expect(c.batchSupport('beta')).toBeNull()
    },
  )

  it('sends batches in chunks of at most 100 where they work, and keeps call order', async () => {
    const { c, bodies } = client((batch) => ({
      status: 200,
      body: JSON.stringify(
        batch.map((x) => ({
          jsonrpc: '2.0',
          id: (x as { id: number }).id,
          result: `0x${(x as { id: number }).id.toString(16)}`,
        })),
      ),
    }))
    const out = await c.rpcCalls('alpha', calls(2 * MAX_BATCH_CALLS + 4), opts)
    expect(bodies.map((b) => (b as unknown[]).length)).toEqual([100, 100, 4])
    expect(out.map((r) => (r.ok ? Number(r.result) : -1))).toEqual(Array.from({ length: 204 }, (_, i) => i + 1))
    expect(c.batchSupport('alpha')).toBe(true)
    expect(c.unitsFor('alpha', 204)).toBe(3)
  })

  it.each([
    ['request', 3],
    ['call', 204],
    ['call-plus-batch', 207],
  ] as const)('counts what it sends in the unit the service bills (%s)', async (billing, used) => {
    const { c, limiter } = client(
      (batch) => ({
        status: 200,
        body: JSON.stringify(batch.map((x) => ({ jsonrpc: '2.0', id: (x as { id: number }).id, result: '0x1' }))),
      }),
      billing,
    )
    expect(c.unitsFor('alpha', 204)).toBe(used)
    const meter = { requests: 0, units: 0 }
    await c.rpcCalls('alpha', calls(204), { ...opts, meter })
    expect(meter).toEqual({ requests: 3, units: used })
    expect(limiter.state().usedToday).toBe(used)
    // A single call is one unit however the service bills.
    await c.rpc('alpha', { method: 'eth_blockNumber', params: [] }, opts)
    expect(limiter.state().usedToday).toBe(used + 1)
  })

  it('does not take an auth or rate-limit answer for a refusal', async () => {
    const { c } = client(() => ({ status: 401, body: '' }))
    await expect(c.rpcCalls('alpha', calls(2), opts)).rejects.toMatchObject({ kind: 'auth' })
    expect(c.batchSupport('alpha')).toBeNull()
    // Nor an unknown network, or a quota used up (HTTP 402).
    const unknown = client(() => ({ status: 404, body: '{"error":"not_found","message":"unknown network"}' })).c
    await expect(unknown.rpcCalls('alpha', calls(3), opts)).rejects.toMatchObject({ kind: 'not-found' })
    expect(unknown.batchSupport('alpha')).toBeNull()
    const broke = client(() => ({ status: 402, body: '' })).c
    await expect(broke.rpcCalls('alpha', calls(3), opts)).rejects.toMatchObject({ kind: 'quota-exhausted' })
    expect(broke.batchSupport('alpha')).toBeNull()
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LimiterState } from '@shared/bridge/contract'
import { SPEC_LIMITS, type Limits, type Profile } from '@shared/domain/profile'
import { Redactor } from '../util/logger'
import { ServiceClient } from '../service/service-client'
import { json, startScriptedServer } from '../testing/scripted-server'
import type { Limiter } from './limiter'
import { LimiterPool, type LimiterPoolOptions } from './limiter-pool'
import { MemoryQuotaLedger, QuotaFile } from './quota-store'

const NOON = Date.UTC(2030, 0, 1, 12, 0, 0)
const DAY = '2030-01-01'
let dir: string

beforeEach(() => {
  vi.useFakeTimers({ now: NOON })
  dir = mkdtempSync(join(tmpdir(), 'limiter-pool-'))
})
afterEach(() => {
  vi.useRealTimers()
  rmSync(dir, { recursive: true, force: true })
})

function pool(
  limits: Partial<Limits>,
  extra: Partial<LimiterPoolOptions> = {},
): { pool: LimiterPool; ledger: MemoryQuotaLedger } {
  const ledger = (extra.ledger as MemoryQuotaLedger | undefined) ?? new MemoryQuotaLedger()
  const p = new LimiterPool({
    profileId: 'p',
    limits: { ...SPEC_LIMITS, ...limits },
    networks: () => ['alpha', 'beta'],
    ledger,
    ...extra,
  })
  return { pool: p, ledger }
}

/** Starts `n` requests that release at once; returns each grant's time (ms after noon). */
function grant(limiter: Limiter, n: number): { times: number[]; errors: unknown[] } {
  const times: number[] = []
  const errors: unknown[] = []
  for (let i = 0; i < n; i++) {
    limiter.acquire({ priority: 'user' }).then(
      (permit) => {
        times.push(Date.now() - NOON)
        permit.release()
      },
      (e: unknown) => errors.push(e),
    )
  }
  return { times, errors }
}

/** Takes `n` requests through at once (each released), so only the daily count remains. */
async function spend(limiter: Limiter, n: number): Promise<void> {
  for (let i = 0; i < n; i++) (await limiter.acquire({ priority: 'user' })).release()
}

describe('LimiterPool scopes', () => {
  it("default 'key': one limiter for every network and endpoint, counted under the plain profile id", async () => {
    const ledger = new MemoryQuotaLedger()
    // A count saved before scopes existed goes on.
    ledger.records.set('p', { day: DAY, used: 990, keyTag: '' })
    const { pool: p } = pool({}, { ledger })
    expect(p.scope).toBe('key')
    const one = p.for('alpha', 'data')
    for (const [n, e] of [
      ['alpha', 'rpc'],
      ['beta', 'data'],
      ['beta', 'rpc'],
    ] as const)
      expect(p.for(n, e)).toBe(one)
    await spend(p.for('beta', 'rpc'), 4)
    expect(p.state()).toMatchObject({ profileId: 'p', scope: 'key', usedToday: 994, leftToday: 6 })
    expect(p.state().scopeKey).toBeUndefined()
    expect([...ledger.records.keys()]).toEqual(['p'])
    p.dispose()
  })

  it("'network': a separate bucket and daily quota per network, shared by both endpoints", async () => {
    const { pool: p, ledger } = pool({ ratePerSecond: 10, burst: 2, quotaPerDay: 5, scope: 'network' })
    expect(p.for('alpha', 'data')).toBe(p.for('alpha', 'rpc'))
    expect(p.for('alpha', 'data')).not.toBe(p.for('beta', 'data'))
    const alpha = grant(p.for('alpha', 'rpc'), 3)
    const beta = grant(p.for('beta', 'data'), 2)
    await vi.advanceTimersByTimeAsync(0)
    // Alpha's burst of 2 is spent; beta's own burst is untouched by it.
    expect(alpha.times).toEqual([0, 0])
    expect(beta.times).toEqual([0, 0])
    await vi.advanceTimersByTimeAsync(100)
    expect(alpha.times).toEqual([0, 0, 100])
    // Alpha's quota (5) runs out; beta's does not.
    grant(p.for('alpha', 'data'), 2)
    await vi.advanceTimersByTimeAsync(1000)
    await expect(p.for('alpha', 'data').acquire({ priority: 'user' })).rejects.toMatchObject({
      kind: 'quota-exhausted',
    })
    await expect(p.for('beta', 'rpc').acquire({ priority: 'user' })).resolves.toBeDefined()
    expect(ledger.load('p|alpha')).toMatchObject({ used: 5 })
    expect(ledger.load('p|beta')).toMatchObject({ used: expect.any(Number) })
    expect(ledger.load('p')).toBeNull()
    p.dispose()
  })

  it("'endpoint' splits the data API from the RPC endpoint; 'network-endpoint' splits both", async () => {
    const { pool: ep, ledger } = pool({ quotaPerDay: 2, scope: 'endpoint' })
    expect(ep.for('alpha', 'data')).toBe(ep.for('beta', 'data'))
    expect(ep.for('alpha', 'data')).not.toBe(ep.for('alpha', 'rpc'))
    await spend(ep.for('alpha', 'data'), 2)
    await expect(ep.for('beta', 'data').acquire({ priority: 'user' })).rejects.toMatchObject({
      kind: 'quota-exhausted',
    })
    await spend(ep.for('beta', 'rpc'), 2)
    expect([...ledger.records.keys()].sort()).toEqual(['p|data', 'p|rpc'])
    ep.dispose()

    const { pool: both, ledger: l2 } = pool({ quotaPerDay: 1, scope: 'network-endpoint' })
    const all = [both.for('alpha', 'data'), both.for('alpha', 'rpc'), both.for('beta', 'data'), both.for('beta', 'rpc')]
    expect(new Set(all).size).toBe(4)
    for (const limiter of all) await spend(limiter, 1)
    expect([...l2.records.keys()].sort()).toEqual(['p|alpha|data', 'p|alpha|rpc', 'p|beta|data', 'p|beta|rpc'])
    both.dispose()
  })

  it('reports the bucket with the least left today, naming it, on every change', async () => {
    const states: LimiterState[] = []
    const { pool: p } = pool(
      { quotaPerDay: 100, scope: 'network-endpoint' },
      { onState: (s) => states.push(s), tuning: { stateIntervalMs: 0 } },
    )
    await spend(p.for('beta', 'rpc'), 3)
    await spend(p.for('alpha', 'data'), 1)
    await vi.advanceTimersByTimeAsync(0)
    expect(p.state()).toMatchObject({
      profileId: 'p',
      scope: 'network-endpoint',
      scopeKey: 'beta|rpc',
      usedToday: 3,
      leftToday: 97,
    })
    expect(states.at(-1)).toMatchObject({ profileId: 'p', scopeKey: 'beta|rpc', leftToday: 97 })
    p.dispose()
  })

  it('new limits reach every bucket; a new scope starts each bucket from the counts it overlaps', async () => {
    const limits = { ratePerSecond: 1000, burst: 10, quotaPerDay: 100 }
    const { pool: p, ledger } = pool({ ...limits, scope: 'network' })
    await spend(p.for('alpha', 'data'), 3)
    await spend(p.for('beta', 'rpc'), 4)
    p.setLimits({ ...limits, quotaPerDay: 4, scope: 'network' })
    await expect(p.for('beta', 'data').acquire({ priority: 'user' })).rejects.toMatchObject({ kind: 'quota-exhausted' })
    expect(p.state()).toMatchObject({ quotaPerDay: 4, leftToday: 0, scopeKey: 'beta' })
    expect(p.for('alpha', 'rpc').state()).toMatchObject({ quotaPerDay: 4, leftToday: 1 })

    // Wider: the key's bucket starts from both networks' counts (3 + 4), not from zero.
    p.setLimits({ ...limits, scope: 'key' })
    expect(p.state()).toMatchObject({ scope: 'key', usedToday: 7 })
    // Narrower: each endpoint's bucket may already hold all of the key's requests.
    await spend(p.for('alpha', 'rpc'), 1)
    p.setLimits({ ...limits, scope: 'endpoint' })
    expect(ledger.load('p|data')).toMatchObject({ used: 8 })
    expect(ledger.load('p|rpc')).toMatchObject({ used: 8 })
    expect(p.state()).toMatchObject({ scope: 'endpoint', usedToday: 8 })
    p.dispose()
  })

  it("counts per key: two profiles' pools on one key share its count, and a new scope carries the key's", async () => {
    const ledger = new MemoryQuotaLedger()
    const limits = { ratePerSecond: 1000, burst: 10, quotaPerDay: 10 }
    const { pool: p } = pool(limits, { ledger })
    const { pool: q } = pool(limits, { ledger, profileId: 'q' })
    p.for('alpha', 'data').useKey('k1')
    q.for('alpha', 'data').useKey('k1')
    await spend(p.for('alpha', 'data'), 6)
    await spend(q.for('beta', 'rpc'), 4)
    await expect(q.for('alpha', 'rpc').acquire({ priority: 'user' })).rejects.toMatchObject({ kind: 'quota-exhausted' })
    expect(p.state()).toMatchObject({ usedToday: 10, leftToday: 0 })
    // Narrower buckets of the same key each start from the key's whole count.
    p.setLimits({ ...limits, scope: 'network' })
    p.for('beta', 'data').useKey('k1')
    expect(p.for('beta', 'data').state()).toMatchObject({ usedToday: 10 })
    p.dispose()
    q.dispose()
  })

  it('rejects what waited in a bucket that a new scope replaced, with a clear reason', async () => {
    const { pool: p } = pool({ ratePerSecond: 1, burst: 1, scope: 'key' })
    const old = p.for('alpha', 'data')
    await old.acquire({ priority: 'user' })
    const waiting = old.acquire({ priority: 'user' })
    p.setLimits({ ...SPEC_LIMITS, scope: 'network' })
    await expect(waiting).rejects.toMatchObject({ kind: 'cancelled', message: expect.stringMatching(/limits changed/) })
    expect(p.for('alpha', 'data')).not.toBe(old)
    p.dispose()
  })

  it('removing a profile forgets the counts of all its buckets and no other profile', async () => {
    const file = new QuotaFile(join(dir, 'quota.json'))
    for (const id of ['p', 'p|alpha', 'p|beta|rpc', 'p2', 'p2|alpha']) file.save(id, { day: DAY, used: 1, keyTag: '' })
    file.remove('p')
    await file.settled()
    const again = new QuotaFile(join(dir, 'quota.json'))
    expect(['p', 'p|alpha', 'p|beta|rpc', 'p2', 'p2|alpha'].map((id) => again.load(id) !== null)).toEqual([
      false,
      false,
      false,
      true,
      true,
    ])
  })
})

describe('ServiceClient through a pool', () => {
  let server: Awaited<ReturnType<typeof startScriptedServer>>
  beforeAll(async () => {
    server = await startScriptedServer()
  })
  afterAll(() => server.close())

  it("sends each request through its (network, endpoint)'s bucket", async () => {
    vi.useRealTimers()
    const clock = {
      now: () => NOON,
      setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
      clearTimeout: (t: unknown) => clearTimeout(t as NodeJS.Timeout),
    }
    server.script((req, res) => {
      if (req.method === 'POST')
        json(res, 200, { jsonrpc: '2.0', id: (JSON.parse(req.body) as { id: number }).id, result: '0x10' })
      else json(res, 200, { items: [], next_page_params: null })
    })
    const profile: Profile = {
      id: 'p',
      name: 'P',
      kind: 'service',
      baseUrl: server.url,
      rpcUrl: `${server.url}/rpc`,
      networks: [
        { name: 'alpha', label: 'Alpha' },
        { name: 'beta', label: 'Beta' },
      ],
      limits: { ...SPEC_LIMITS, quotaPerDay: 1, scope: 'endpoint' },
      billing: 'request',
    }
    const { pool: p } = pool(profile.limits, { clock })
    const client = new ServiceClient({
      profile: () => profile,
      getKey: async () => 'k-0123456789',
      limiter: (network, endpoint) => p.for(network, endpoint),
      spelling: { get: () => 'balance', set: () => {} },
      redact: (s) => new Redactor().redact(s),
      clock,
      maxAttempts: 1,
    })
    server.seen.length = 0
    await client.data.balances('alpha', '0x00000000000000000000000000000000000000aa', { priority: 'user' })
    await expect(client.rpc('beta', { method: 'eth_blockNumber', params: [] }, { priority: 'user' })).resolves.toBe(
      '0x10',
    )
    // The data API's one request a day is spent, on whichever network; the server never sees a third.
    await expect(
      client.data.balances('beta', '0x00000000000000000000000000000000000000aa', { priority: 'user' }),
    ).rejects.toMatchObject({ kind: 'quota-exhausted' })
    expect(server.seen.map((s) => s.method)).toEqual(['GET', 'POST'])
    p.dispose()
  })
})

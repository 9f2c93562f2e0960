import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { checksumAddress } from '@shared/domain/address'
import { SPEC_LIMITS, type Profile } from '@shared/domain/profile'
import { Limiter } from '../limiter/limiter'
import { MemoryQuotaLedger } from '../limiter/quota-store'
import { Redactor } from '../util/logger'
import { decodeCursor } from '../service/cursor'
import { ServiceClient } from '../service/service-client'
import type { BalanceSpelling } from '../service/service-types'
import { json, startScriptedServer } from '../testing/scripted-server'
import { balanceItem, nextPage, transaction } from '../testing/service-fixtures'
import { DataService } from './data-service'
import { DEFAULT_FRESHNESS } from './freshness'
import { stitchFirstPage } from './page-stitch'
import { SnapshotStore } from './snapshot-store'

/**
 * The data path against a real HTTP server whose answers the test scripts: cache freshness,
 * de-duplication, cancellation, snapshots on failure, cursors and the balances spelling.
 * Every typed error against the real sandbox is in service.integration.test.ts.
 */
const KEY = 'test-key-0123456789'
const ADDR = '0x00000000000000000000000000000000000000aa'
let server: Awaited<ReturnType<typeof startScriptedServer>>
let dir: string
let now: number
let spelling: BalanceSpelling | null
let heads: { network: string; head: number }[]
/** Every store a test made: each writes its snapshots in the background, after the answer. */
let stores: SnapshotStore[]

beforeAll(async () => {
  server = await startScriptedServer()
})
afterAll(() => server.close())
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'data-service-'))
  now = Date.UTC(2030, 0, 1, 10)
  spelling = null
  heads = []
  server.seen.length = 0
  stores = []
})
afterEach(async () => {
  // A write still queued would create the folder again while it is removed (or after).
  await Promise.all(stores.map((s) => s.flush()))
  rmSync(dir, { recursive: true, force: true })
})

function setup(options: { maxAttempts?: number } = {}) {
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
    limits: SPEC_LIMITS,
    billing: 'request',
  }
  const clock = {
    now: () => now,
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (t: unknown) => clearTimeout(t as NodeJS.Timeout),
  }
  const limiter = new Limiter({
    profileId: 'p',
    limits: { ratePerSecond: 1000, burst: 100, quotaPerDay: 100_000 },
    ledger: new MemoryQuotaLedger(),
    clock,
  })
  const redactor = new Redactor()
  redactor.add(KEY)
  const client = new ServiceClient({
    profile: () => profile,
    getKey: async () => KEY,
    limiter,
    spelling: { get: () => spelling, set: (s) => (spelling = s) },
    redact: (s) => redactor.redact(s),
    clock,
    backoffMs: 1,
    maxAttempts: options.maxAttempts ?? 3,
  })
  const snapshots = new SnapshotStore({ root: join(dir, 'snapshots') })
  stores.push(snapshots)
  const data = new DataService({
    profileId: 'p',
    client,
    snapshots,
    clock,
    onHead: (network, head) => heads.push({ network, head }),
    headOf: () => 500,
  })
  return { data, snapshots, limiter, client }
}

const page = (from: number, count: number, block: number, confirmations: number) =>
  Array.from({ length: count }, (_, i) => transaction(from + i, block - i, confirmations + i))

describe('DataService', () => {
  it('falls back to /balances on a 404 and remembers the spelling', async () => {
    server.script((req, res) =>
      req.path.endsWith('/balance')
        ? json(res, 404, { error: 'not_found' })
        : json(res, 200, { items: [balanceItem()], next_page_params: null }),
    )
    const { data } = setup()
    const view = await data.balances({ network: 'alpha', address: ADDR, priority: 'user', refresh: false })
    expect(view).toMatchObject({
      source: 'network',
      staleReason: null,
      network: 'alpha',
      address: checksumAddress(ADDR),
    })
    expect(view.items[0]!.value).toBe('1000000000000000000')
    expect(spelling).toBe('balances')
    expect(server.seen.map((s) => s.path)).toEqual(['/api/v1/alpha/balance', '/api/v1/alpha/balances'])
    expect(server.seen[0]!.query.get('api_key')).toBe(KEY)
    // The remembered spelling is used first from now on.
    await data.balances({ network: 'beta', address: ADDR, priority: 'user', refresh: false })
    expect(server.seen.at(-1)!.path).toBe('/api/v1/beta/balances')
    expect(server.seen).toHaveLength(3)
  })

  it('serves fresh answers from the cache, refetches when stale or asked, and says which', async () => {
    let n = 0
    server.script((_req, res) => json(res, 200, { items: [balanceItem(String(++n))], next_page_params: null }))
    const { data } = setup()
    const req = { network: 'alpha', address: ADDR, priority: 'user' as const, refresh: false }
    expect((await data.balances(req)).source).toBe('network')
    now += 60_000
    const cached = await data.balances(req)
    expect(cached).toMatchObject({ source: 'cache', fetchedAt: new Date(now - 60_000).toISOString() })
    expect(cached.items[0]!.value).toBe('1')
    expect((await data.balances({ ...req, refresh: true })).items[0]!.value).toBe('2')
    now += DEFAULT_FRESHNESS.balancesMs + 1000
    expect((await data.balances(req)).items[0]!.value).toBe('3')
    expect(n).toBe(3)
  })

  it('shares one request among identical concurrent ones', async () => {
    server.script((_req, res) => setTimeout(() => json(res, 200, { items: [], next_page_params: null }), 30))
    const { data } = setup()
    const req = { network: 'alpha', address: ADDR, priority: 'prefetch' as const, refresh: true }
    const results = await Promise.all([
      data.balances(req),
      data.balances({ ...req, priority: 'user' }),
      data.balances(req),
    ])
    expect(results.map((r) => r.source)).toEqual(['network', 'network', 'network'])
    expect(server.seen).toHaveLength(1)
  })

  it('drops the queued work of a closed view and keeps work another view still waits for', async () => {
    server.script((_req, res) => json(res, 200, { items: [], next_page_params: null }))
    const { data, limiter } = setup()
    limiter.setLimits({ ratePerSecond: 20, burst: 1, quotaPerDay: 100 })
    await data.balances({ network: 'alpha', address: ADDR, priority: 'user', refresh: true }) // uses the token
    const a = data.balances({ network: 'beta', address: ADDR, priority: 'user', scope: 'view-a', refresh: true })
    const shared = data.balances({ network: 'alpha', address: ADDR, priority: 'user', scope: 'view-a', refresh: true })
    const sharedB = data.balances({ network: 'alpha', address: ADDR, priority: 'user', scope: 'view-b', refresh: true })
    expect(data.cancelScope('view-a')).toBe(2)
    now += 1000 // the limiter's refill timer finds a token when it fires
    await expect(a).rejects.toMatchObject({ kind: 'cancelled' })
    await expect(shared).rejects.toMatchObject({ kind: 'cancelled' })
    await expect(sharedB).resolves.toMatchObject({ source: 'network' })
    expect(server.seen).toHaveLength(2)
    expect(limiter.state().usedToday).toBe(2)
  })

  it('pages with an opaque cursor that never carries the key, and learns the head for free', async () => {
    const first = page(0, 50, 400, 100)
    const second = page(50, 10, 350, 150)
    server.script((req, res) => {
      if (!req.query.has('block_number'))
        return json(res, 200, { items: first, next_page_params: nextPage(first.at(-1)!) })
      return json(res, 200, { items: second, next_page_params: null })
    })
    const { data } = setup()
    const p1 = await data.transactions({
      network: 'alpha',
      address: ADDR,
      cursor: null,
      priority: 'user',
      refresh: false,
    })
    expect(p1.items).toHaveLength(50)
    expect(p1.nextCursor).not.toBeNull()
    expect(decodeCursor(p1.nextCursor!)).toEqual({
      block_number: 351,
      fee: '21000000000000',
      hash: first.at(-1)!.hash,
      index: 0,
      inserted_at: '2024-01-01T00:00:00.000000Z',
      items_count: 50,
      value: '1',
    })
    expect(heads).toEqual([{ network: 'alpha', head: 500 }])
    const p2 = await data.transactions({
      network: 'alpha',
      address: ADDR,
      cursor: p1.nextCursor,
      priority: 'user',
      refresh: false,
    })
    expect(p2).toMatchObject({ cursor: p1.nextCursor, nextCursor: null, source: 'network' })
    const q = server.seen[1]!.query
    expect(q.getAll('api_key')).toEqual([KEY])
    expect(q.has('apikey')).toBe(false)
    expect(q.get('block_number')).toBe('351')
  })

  it('shows the saved snapshot, marked, when the service is down or the quota is gone, and ages its confirmations', async () => {
    const items = page(0, 3, 480, 5)
    server.script((_req, res) => json(res, 200, { items, next_page_params: null }))
    const { data, snapshots, limiter } = setup({ maxAttempts: 1 })
    const req = { network: 'alpha', address: ADDR, cursor: null, priority: 'user' as const, refresh: false }
    await data.transactions(req)
    await snapshots.flush()
    server.script((req2, res) => res.destroy())
    now += 3600_000
    const offline = await data.transactions(req)
    expect(offline).toMatchObject({
      source: 'snapshot',
      staleReason: 'offline',
      fetchedAt: new Date(now - 3600_000).toISOString(),
    })
    // headOf says 500: a block-480 transaction has 20 confirmations by now.
    expect(offline.items[0]!.confirmations).toBe(20)

    // A fresh process (empty memory) finds the snapshot on disk.
    const again = setup({ maxAttempts: 1 })
    again.limiter.markQuotaExhausted()
    const quota = await again.data.transactions(req)
    expect(quota).toMatchObject({ source: 'snapshot', staleReason: 'quota' })
    expect(quota.items.map((t) => t.hash)).toEqual(items.map((t) => t.hash))
    // Without a snapshot the error itself comes through.
    await expect(
      again.data.balances({ network: 'alpha', address: ADDR, priority: 'user', refresh: false }),
    ).rejects.toMatchObject({ kind: 'quota-exhausted' })
    limiter.dispose()
  })

  it('serves settled pages from disk after a restart without asking', async () => {
    const first = page(0, 50, 400, 100)
    server.script((req, res) =>
      json(res, 200, {
        items: req.query.has('block_number') ? page(50, 5, 340, 160) : first,
        next_page_params: req.query.has('block_number') ? null : nextPage(first.at(-1)!),
      }),
    )
    const one = setup()
    const p1 = await one.data.transactions({
      network: 'alpha',
      address: ADDR,
      cursor: null,
      priority: 'user',
      refresh: false,
    })
    await one.data.transactions({
      network: 'alpha',
      address: ADDR,
      cursor: p1.nextCursor,
      priority: 'user',
      refresh: false,
    })
    await one.snapshots.flush()
    const asked = server.seen.length
    now += 3600_000
    const two = setup()
    const p2 = await two.data.transactions({
      network: 'alpha',
      address: ADDR,
      cursor: p1.nextCursor,
      priority: 'user',
      refresh: false,
    })
    expect(p2.source).toBe('cache')
    expect(server.seen).toHaveLength(asked)
  })

  it('rejects a cursor it did not make before asking anything', async () => {
    const { data } = setup()
    await expect(
      data.transactions({ network: 'alpha', address: ADDR, cursor: 'bm9wZQ', priority: 'user', refresh: false }),
    ).rejects.toMatchObject({ kind: 'invalid-input', details: { field: 'cursor' } })
    expect(server.seen).toHaveLength(0)
  })
})

describe('stitchFirstPage', () => {
  const tx = (i: number) => transaction(i, 1000 - i, 3)
  const page = (from: number, to: number, nextCursor: string | null) => ({
    items: Array.from({ length: to - from }, (_, k) => tx(from + k)),
    unreadable: [],
    nextCursor,
  })

  it('follows a refetched page with the rest of the previous one, and its cursor', () => {
    const previous = page(10, 60, 'old')
    const fresh = { ...page(8, 58, 'new'), items: page(8, 58, null).items }
    const stitched = stitchFirstPage(fresh, previous)
    expect(stitched.items.map((t) => t.hash)).toEqual(page(8, 60, null).items.map((t) => t.hash))
    expect(stitched.nextCursor).toBe('old')
  })

  it('keeps the refetched page as it is when it cannot prove the pages join', () => {
    const previous = page(10, 60, 'old')
    // A page or more of new transactions: its last row is not in the previous page.
    expect(stitchFirstPage(page(100, 150, 'new'), previous).nextCursor).toBe('new')
    // Unreadable items (their place in the list is unknown), no previous page, or either page the last.
    const unreadable = [{ index: 3, path: 'items.3.hash', message: 'Required', raw: {}, hash: null }]
    expect(stitchFirstPage({ ...page(8, 58, 'new'), unreadable }, previous).nextCursor).toBe('new')
    expect(stitchFirstPage(page(8, 58, 'new'), { ...previous, unreadable }).nextCursor).toBe('new')
    expect(stitchFirstPage(page(8, 58, 'new'), undefined).nextCursor).toBe('new')
    expect(stitchFirstPage(page(8, 58, null), previous).nextCursor).toBeNull()
    expect(stitchFirstPage(page(8, 58, 'new'), page(10, 60, null)).nextCursor).toBe('new')
  })

  it('does not grow a first page refetched again and again past twice its length', () => {
    // The previous first page was itself stitched (100 rows); stitching again would give 105.
    const previous = page(10, 110, 'old')
    const fresh = page(5, 55, 'new')
    expect(stitchFirstPage(fresh, previous)).toBe(fresh)
    // Up to twice the page, it still joins.
    expect(stitchFirstPage(fresh, page(10, 105, 'old')).items).toHaveLength(100)
  })
})

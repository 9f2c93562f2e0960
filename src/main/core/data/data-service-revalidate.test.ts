import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SPEC_LIMITS, type Profile } from '@shared/domain/profile'
import { Limiter } from '../limiter/limiter'
import { MemoryQuotaLedger } from '../limiter/quota-store'
import { ServiceClient } from '../service/service-client'
import { json, startScriptedServer } from '../testing/scripted-server'
import { balanceItem, nextPage, transaction } from '../testing/service-fixtures'
import { DataService } from './data-service'
import { DEFAULT_FRESHNESS } from './freshness'
import { SnapshotStore } from './snapshot-store'

/**
 * The revalidation rules of DataService on a fake clock, against a scripted server whose RPC
 * endpoint always says "nothing moved" (block 0x200, nonce 1, balance 1, no logs): when it is
 * asked, what a confirmation is worth, and when it is not asked at all.
 * The real chain (changed and unchanged addresses) is in revalidate.integration.test.ts.
 */
const KEY = 'test-key-0123456789'
const ADDR = '0x00000000000000000000000000000000000000aa'
let server: Awaited<ReturnType<typeof startScriptedServer>>
let dir: string
let now: number
/** Every store a test made: each writes its snapshots in the background, after the answer. */
let stores: SnapshotStore[]

beforeAll(async () => {
  server = await startScriptedServer()
})
afterAll(() => server.close())
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'data-revalidate-'))
  now = Date.UTC(2030, 0, 1, 10)
  stores = []
  server.seen.length = 0
  server.script((req, res) => {
    if (req.path.startsWith('/rpc/')) {
      const calls = JSON.parse(req.body) as { id: number; method: string }[]
      const result = (m: string): unknown => (m === 'eth_blockNumber' ? '0x200' : m === 'eth_getLogs' ? [] : '0x1')
      return json(
        res,
        200,
        calls.map((c) => ({ jsonrpc: '2.0', id: c.id, result: result(c.method) })),
      )
    }
    if (req.path.endsWith('/transactions'))
      return json(res, 200, { items: [transaction(1, 0x100, 5)], next_page_params: null })
    return json(res, 200, { items: [balanceItem()], next_page_params: null })
  })
})
afterEach(async () => {
  // A write still queued would create the folder again while it is removed (or after).
  await Promise.all(stores.map((s) => s.flush()))
  rmSync(dir, { recursive: true, force: true })
})

async function setup(billing: Profile['billing'] = 'request') {
  const profile: Profile = {
    id: 'p',
    name: 'P',
    kind: 'service',
    baseUrl: server.url,
    rpcUrl: `${server.url}/rpc`,
    networks: [{ name: 'alpha', label: 'Alpha' }],
    limits: SPEC_LIMITS,
    billing,
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
  const client = new ServiceClient({
    profile: () => profile,
    getKey: async () => KEY,
    limiter,
    spelling: { get: () => 'balance', set() {} },
    redact: (s) => s,
    clock,
    backoffMs: 1,
  })
  const polls: { head: number; gas: string | null }[] = []
  const snapshots = new SnapshotStore({ root: join(dir, 'snapshots') })
  stores.push(snapshots)
  const data = new DataService({
    profileId: 'p',
    client,
    snapshots,
    clock,
    onPoll: (_n, head, gas) => polls.push({ head, gas }),
  })
  return { data, client, polls }
}

const req = { network: 'alpha', address: ADDR, priority: 'user' as const, refresh: false }
const rpcRequests = (): number => server.seen.filter((s) => s.path.startsWith('/rpc/')).length
const dataRequests = (): number => server.seen.filter((s) => s.path.startsWith('/api/')).length
const visit = (data: DataService) => Promise.all([data.balances(req), data.transactions({ ...req, cursor: null })])

describe('DataService revalidation', () => {
  it('asks once for balances and first page together, then serves them as confirmed for another window', async () => {
    const { data, client, polls } = await setup()
    await client.rpcCalls(
      'alpha',
      [
        { method: 'eth_blockNumber', params: [] },
        { method: 'eth_gasPrice', params: [] },
      ],
      { priority: 'user' },
    ) // the endpoint takes batches
    const fetchedAt = new Date(now).toISOString()
    await data.transactions({ ...req, cursor: null })
    await data.balances(req)
    server.seen.length = 0
    now += DEFAULT_FRESHNESS.firstPageMs + 60_000
    const [balances, page] = await visit(data)
    expect({ rpc: rpcRequests(), data: dataRequests() }).toEqual({ rpc: 1, data: 0 })
    const checkedAt = new Date(now).toISOString()
    expect(balances).toMatchObject({ source: 'cache', fetchedAt, checkedAt })
    expect(page).toMatchObject({ source: 'cache', fetchedAt, checkedAt })
    // The page was current at block 0x105 (0x100 + 5 confirmations): state there against latest.
    const batch = JSON.parse(server.seen[0]!.body) as { method: string; params: unknown[] }[]
    expect(batch[1]).toMatchObject({ method: 'eth_getTransactionCount', params: [ADDR, '0x105'] })
    // The answer's head and gas price serve as the network's height poll.
    expect(polls).toEqual([{ head: 0x200, gas: '1' }])
    // Confirmed: fresh for another window, counted from the confirmation.
    now += 60_000
    await visit(data)
    expect(server.seen).toHaveLength(1)
  })

  it('refetches without asking once the data is older than revalidatedMaxMs (1 h)', async () => {
    const { data, client } = await setup()
    await client.rpcCalls(
      'alpha',
      [
        { method: 'eth_blockNumber', params: [] },
        { method: 'eth_gasPrice', params: [] },
      ],
      { priority: 'user' },
    )
    await data.transactions({ ...req, cursor: null })
    await data.balances(req)
    server.seen.length = 0
    now += 3600_000
    const [balances, page] = await visit(data)
    expect({ rpc: rpcRequests(), data: dataRequests() }).toEqual({ rpc: 0, data: 2 })
    expect(balances.source).toBe('network')
    expect(page.source).toBe('network')
    expect(page.checkedAt).toBeUndefined()
  })

  it('refetches without asking where the service bills per call (the check would cost more than the refetch)', async () => {
    const { data, client } = await setup('call')
    await data.transactions({ ...req, cursor: null })
    await data.balances(req)
    await learnBatches(client)
    now += DEFAULT_FRESHNESS.firstPageMs + 60_000
    server.seen.length = 0
    await visit(data)
    expect({ rpc: rpcRequests(), data: dataRequests() }).toEqual({ rpc: 0, data: 2 })
  })

  it('refetches without asking where batches are untried, or the block the data was current at is unknown', async () => {
    const { data, client } = await setup()
    // Balances before any page: no block to compare from.
    await data.balances(req)
    await data.transactions({ ...req, cursor: null })
    now += DEFAULT_FRESHNESS.firstPageMs + 60_000
    server.seen.length = 0
    await visit(data)
    // Batches untried: the check could cost 1 + 10 requests.
    expect({ rpc: rpcRequests(), data: dataRequests() }).toEqual({ rpc: 0, data: 2 })
    await client.rpcCalls(
      'alpha',
      [
        { method: 'eth_blockNumber', params: [] },
        { method: 'eth_gasPrice', params: [] },
      ],
      { priority: 'user' },
    )
    now += DEFAULT_FRESHNESS.firstPageMs + 60_000
    server.seen.length = 0
    await data.balances(req)
    expect({ rpc: rpcRequests(), data: dataRequests() }).toEqual({ rpc: 1, data: 0 })
  })
})

const OTHER = '0x00000000000000000000000000000000000000bb'

/** A revalidation batch answered at `head`: no logs, nonce and balance 1, the nonce 2 at latest where `moved`. */
function answerRpc(body: string, head: string, moved: (address: unknown) => boolean): unknown[] {
  const calls = JSON.parse(body) as { id: number; method: string; params: unknown[] }[]
  const result = (c: (typeof calls)[number]): unknown =>
    c.method === 'eth_blockNumber'
      ? head
      : c.method === 'eth_getLogs'
        ? []
        : c.method === 'eth_getTransactionCount' && c.params[1] === 'latest' && moved(c.params[0])
          ? '0x2'
          : '0x1'
  return calls.map((c) => ({ jsonrpc: '2.0', id: c.id, result: result(c) }))
}
const learnBatches = (client: ServiceClient) =>
  client.rpcCalls(
    'alpha',
    [
      { method: 'eth_blockNumber', params: [] },
      { method: 'eth_gasPrice', params: [] },
    ],
    { priority: 'user' },
  )

describe('DataService revalidation of the other addresses in the same request', () => {
  it("asks about the network's other addresses with data on hand; their next look needs no request", async () => {
    const { data, client } = await setup()
    await learnBatches(client)
    const other = { ...req, address: OTHER }
    // A page first: balances fetched before any page have no block to be checked from.
    await data.transactions({ ...req, cursor: null })
    await data.balances(req)
    await Promise.all([data.balances(other), data.transactions({ ...other, cursor: null })])
    server.seen.length = 0
    now += DEFAULT_FRESHNESS.firstPageMs + 60_000
    const checkedAt = new Date(now).toISOString()
    await visit(data)
    expect({ rpc: rpcRequests(), data: dataRequests() }).toEqual({ rpc: 1, data: 0 })
    const batch = JSON.parse(server.seen[0]!.body) as { method: string; params: unknown[] }[]
    const asked = batch.filter((c) => c.method === 'eth_getTransactionCount').map((c) => c.params[0])
    expect(asked).toEqual([ADDR, ADDR, OTHER, OTHER])
    // Two minutes later, the other address: confirmed by that request, served without one.
    now += 120_000
    server.seen.length = 0
    const [balances, page] = await Promise.all([data.balances(other), data.transactions({ ...other, cursor: null })])
    expect(server.seen).toHaveLength(0)
    expect(balances).toMatchObject({ source: 'cache', checkedAt })
    expect(page).toMatchObject({ source: 'cache', checkedAt })
    // Once that confirmation is older than the window, it is asked about again.
    now += DEFAULT_FRESHNESS.firstPageMs
    await data.transactions({ ...other, cursor: null })
    expect({ rpc: rpcRequests(), data: dataRequests() }).toEqual({ rpc: 1, data: 0 })
  })

  it('takes along the most recently fetched other addresses, counting a refetch as recent', async () => {
    const { data, client } = await setup()
    await learnBatches(client)
    const others = [1, 2, 3, 4, 5, 6].map((n) => `0x${n.toString(16).padStart(40, '0')}`)
    const look = (address: string, refresh = false) =>
      Promise.all([
        data.transactions({ ...req, address, refresh, cursor: null }),
        data.balances({ ...req, address, refresh }),
      ])
    await look(ADDR)
    for (const o of others) await look(o)
    // The first of them is fetched again: it is now the most recent.
    await look(others[0]!, true)
    server.seen.length = 0
    now += DEFAULT_FRESHNESS.firstPageMs + 60_000
    await visit(data)
    const batch = JSON.parse(server.seen.find((s) => s.path.startsWith('/rpc/'))!.body) as {
      method: string
      params: unknown[]
    }[]
    const asked = [...new Set(batch.filter((c) => c.method === 'eth_getTransactionCount').map((c) => c.params[0]))]
    expect(asked).toEqual([ADDR, others[0], others[5], others[4], others[3]])
  })

  it('an address found changed on the way is refetched at its next look without asking again', async () => {
    const { data, client } = await setup()
    // The other address sent a transaction since (its nonce moved); nothing else moved.
    server.script((r, res) => {
      if (r.path.startsWith('/rpc/'))
        return json(
          res,
          200,
          answerRpc(r.body, '0x200', (a) => a === OTHER),
        )
      if (r.path.endsWith('/transactions'))
        return json(res, 200, { items: [transaction(1, 0x100, 5)], next_page_params: null })
      return json(res, 200, { items: [balanceItem()], next_page_params: null })
    })
    await learnBatches(client)
    const other = { ...req, address: OTHER }
    await data.transactions({ ...other, cursor: null })
    await data.balances(other)
    await visit(data)
    now += DEFAULT_FRESHNESS.firstPageMs + 60_000
    server.seen.length = 0
    await visit(data)
    expect({ rpc: rpcRequests(), data: dataRequests() }).toEqual({ rpc: 1, data: 0 })
    server.seen.length = 0
    const [balances, page] = await Promise.all([data.balances(other), data.transactions({ ...other, cursor: null })])
    // A coin-only change: its token balances stand (confirmed), its first page is fetched again.
    expect({ rpc: rpcRequests(), data: dataRequests() }).toEqual({ rpc: 0, data: 1 })
    expect(balances.source).toBe('cache')
    expect(page.source).toBe('network')
  })
})

describe('DataService: a refetched first page continues with the pages already fetched', () => {
  it('hands out the previous cursor when fewer than a page of transactions came in, so page 2 needs no request', async () => {
    const { data, client } = await setup()
    const older = Array.from({ length: 120 }, (_, i) => transaction(100 + i, 0x300 - i, 5))
    let list = older
    server.script((r, res) => {
      // The address's nonce moved: its first page is fetched again.
      if (r.path.startsWith('/rpc/'))
        return json(
          res,
          200,
          answerRpc(r.body, '0x400', () => true),
        )
      const after = r.query.get('hash')
      const from = after ? list.findIndex((t) => t.hash === after) + 1 : 0
      const items = list.slice(from, from + 50)
      const more = from + 50 < list.length
      return json(res, 200, { items, next_page_params: more ? nextPage(items.at(-1)!) : null })
    })
    await learnBatches(client)
    const first = await data.transactions({ ...req, cursor: null })
    const second = await data.transactions({ ...req, cursor: first.nextCursor })
    // Three new transactions at the top.
    list = [...[3, 2, 1].map((k) => transaction(k, 0x300 + k, 1)), ...older]
    now += DEFAULT_FRESHNESS.firstPageMs + 60_000
    server.seen.length = 0
    const refetched = await data.transactions({ ...req, cursor: null })
    expect({ rpc: rpcRequests(), data: dataRequests() }).toEqual({ rpc: 1, data: 1 })
    expect(refetched.source).toBe('network')
    expect(refetched.items.map((t) => t.hash)).toEqual([...list.slice(0, 3), ...older.slice(0, 50)].map((t) => t.hash))
    expect(refetched.nextCursor).toBe(first.nextCursor)
    server.seen.length = 0
    const again = await data.transactions({ ...req, cursor: refetched.nextCursor })
    expect(server.seen).toHaveLength(0)
    expect(again.items.map((t) => t.hash)).toEqual(second.items.map((t) => t.hash))
    // The third page, never fetched, is asked for with the cursor page 2 handed out: no gap, no repeat.
    const third = await data.transactions({ ...req, cursor: again.nextCursor })
    expect(dataRequests()).toBe(1)
    const shown = [...refetched.items, ...again.items, ...third.items].map((t) => t.hash)
    expect(shown).toEqual(list.map((t) => t.hash))
  })
})

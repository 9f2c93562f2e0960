import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SPEC_LIMITS, type Profile } from '../../../shared/domain/profile'
import { Limiter } from '../limiter/limiter'
import { MemoryQuotaLedger } from '../limiter/quota-store'
import { ServiceClient } from '../service/service-client'
import { json, startScriptedServer } from '../testing/scripted-server'
import { balanceItem, transaction } from '../testing/service-fixtures'
import { DataService } from './data-service'
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

beforeAll(async () => {
  server = await startScriptedServer()
})
afterAll(() => server.close())
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'data-revalidate-'))
  now = Date.UTC(2030, 0, 1, 10)
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
afterEach(() => rmSync(dir, { recursive: true, force: true }))

async function setup() {
  const profile: Profile = {
    id: 'p',
    name: 'P',
    kind: 'service',
    baseUrl: server.url,
    rpcUrl: `${server.url}/rpc`,
    networks: [{ name: 'alpha', label: 'Alpha' }],
    limits: SPEC_LIMITS,
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
  const data = new DataService({
    profileId: 'p',
    client,
    snapshots: new SnapshotStore({ root: join(dir, 'snapshots') }),
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
    now += 3 * 60_000
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

  it('refetches without asking where batches are untried, or the block the data was current at is unknown', async () => {
    const { data, client } = await setup()
    // Balances before any page: no block to compare from.
    await data.balances(req)
    await data.transactions({ ...req, cursor: null })
    now += 3 * 60_000
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
    now += 3 * 60_000
    server.seen.length = 0
    await data.balances(req)
    expect({ rpc: rpcRequests(), data: dataRequests() }).toEqual({ rpc: 1, data: 0 })
  })
})

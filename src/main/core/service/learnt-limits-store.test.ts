import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { systemClock, type Clock } from '../util/clock'
import { json, startScriptedServer, type JsonRpcCall as Call, type Seen } from '../testing/scripted-server'
import { rpcClientFixture } from '../testing/rpc-client-fixture'
import { PROBE_EVERY_MS } from './batch-sizes'
import { LearntLimitsStore, LOG_CAP_KEPT_MS } from './learnt-limits-store'

/**
 * Batch sizes and log-range caps learnt from a provider's refusals are kept across runs, per
 * profile and network: a restarted client (a new store on the same folder) pays for no refusal
 * it already met, still probes a larger batch now and then, and starts afresh on another RPC
 * address. The file is a versioned file: a damaged one is set aside, a bad save refused.
 */
const BATCH_CAP = 50
const LOG_CAP = 1000
let server: Awaited<ReturnType<typeof startScriptedServer>>
let batchCap = BATCH_CAP
let sizes: number[] = []
let refusedLogs = 0
let dir = ''
let skew = 0
const clock: Clock = { ...systemClock, now: () => Date.now() + skew }

function one(c: Call): Record<string, unknown> {
  if (c.method !== 'eth_getLogs') return { jsonrpc: '2.0', id: c.id, result: String(c.params[0]) }
  const f = c.params[0] as { fromBlock: string; toBlock: string }
  if (Number(f.toBlock) - Number(f.fromBlock) + 1 > LOG_CAP) {
    refusedLogs += 1
    return { jsonrpc: '2.0', id: c.id, error: { code: -32602, message: `query exceeds max block range ${LOG_CAP}` } }
  }
  return { jsonrpc: '2.0', id: c.id, result: [] }
}

function answer(req: Seen, res: import('node:http').ServerResponse): void {
  const body = JSON.parse(req.body) as Call | Call[]
  if (!Array.isArray(body)) return json(res, 200, one(body))
  sizes.push(body.length)
  if (body.length > batchCap)
    return json(res, 200, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large' } })
  json(res, 200, body.map(one))
}

beforeAll(async () => {
  server = await startScriptedServer()
  server.script(answer)
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'learnt-limits-'))
  batchCap = BATCH_CAP
  sizes = []
  refusedLogs = 0
  skew = 0
})
afterEach(async () => {
  await settle()
  opened.length = 0
  rmSync(dir, { recursive: true, force: true })
})

const calls = (n: number) => Array.from({ length: n }, (_, i) => ({ method: 'eth_getBalance', params: [`0x${i}`] }))
const opts = { priority: 'user' as const }

/** A client of profile `p` as one run of the app makes it: a store on `dir`, keyed by the profile's RPC address. */
const opened: LearntLimitsStore[] = []
/** Every save of every run so far has settled: what the next run reads. */
const settle = () => Promise.all(opened.map((s) => s.settled()))

function run(rpcUrl?: string) {
  const store = new LearntLimitsStore(dir, { now: () => clock.now() })
  opened.push(store)
  // The fixture's profile sends to `${server.url}/rpc`; the store reads the address it is told.
  const learnt = store.forProfile('p', () => rpcUrl ?? `${server.url}/rpc`)
  const { client } = rpcClientFixture(server.url, { client: { clock, learnt } })
  return { store, client }
}

async function learnBoth(): Promise<void> {
  const { client } = run()
  await client.rpcCalls('alpha', calls(104), opts)
  await client.logs.getLogsChunked({ network: 'alpha', fromBlock: 0, toBlock: 4999 }, opts)
  expect(sizes[0]).toBe(100)
  expect(refusedLogs).toBe(1)
  sizes = []
  refusedLogs = 0
  await settle()
}

describe('learnt provider limits across runs', () => {
  it('a restarted client sends batches and log ranges in the sizes learnt, with no refusal', async () => {
    await learnBoth()
    const { client, store } = run()
    expect(store.notice).toBeNull()
    expect(client.batchSupport('alpha')).toBe(true)
    expect(client.unitsFor('alpha', 104)).toBe(3)
    expect(client.logs.learntCap('alpha')).toBe(LOG_CAP)
    expect(client.logs.plannedLogCalls(0, 4999, 'alpha')).toBe(5)
    await client.rpcCalls('alpha', calls(104), opts)
    await client.logs.getLogsChunked({ network: 'alpha', fromBlock: 5000, toBlock: 9999 }, opts)
    expect(sizes.every((s) => s <= BATCH_CAP)).toBe(true)
    expect(refusedLogs).toBe(0)
    // The other network learnt nothing: untried there.
    expect(client.batchSupport('beta')).toBeNull()
    expect(client.logs.learntCap('beta')).toBeNull()
  })

  it('still probes a larger batch now and then after a restart, and keeps a raised cap', async () => {
    await learnBoth()
    batchCap = 100
    // Right after the restart the saved probe time holds: no larger batch yet.
    await run().client.rpcCalls('alpha', calls(104), opts)
    expect(sizes.every((s) => s <= BATCH_CAP)).toBe(true)
    sizes = []
    skew = PROBE_EVERY_MS
    await settle()
    const { client } = run()
    await client.rpcCalls('alpha', calls(104), opts)
    expect(sizes[0]).toBeGreaterThan(BATCH_CAP)
    for (let check = 0; check < 8 && !sizes.includes(100); check++) await client.rpcCalls('alpha', calls(104), opts)
    expect(sizes).toContain(100)
    sizes = []
    await settle()
    await run().client.rpcCalls('alpha', calls(104), opts)
    expect(sizes).toEqual([100, 4])
  })

  it('starts afresh on another RPC address', async () => {
    await learnBoth()
    const { client } = run('http://127.0.0.1:9/other-rpc')
    expect(client.batchSupport('alpha')).toBeNull()
    expect(client.logs.learntCap('alpha')).toBeNull()
  })

  it('learns a log cap again after a week (the provider may have raised it)', async () => {
    await learnBoth()
    skew = LOG_CAP_KEPT_MS + 1
    expect(run().client.logs.learntCap('alpha')).toBeNull()
  })

  it('sets a damaged file aside with a notice and starts empty; the client still works', async () => {
    await learnBoth()
    writeFileSync(join(dir, 'learnt-limits.json'), '{"version":1,"profiles":{"p":{"alpha":{"endpoint":"zz"}}}}')
    rmSync(join(dir, 'learnt-limits.json.bak'), { force: true })
    const { client, store } = run()
    expect(store.notice).toMatch(/learnt provider limits file was damaged .* kept as learnt-limits\.json\.damaged-/)
    expect(readdirSync(dir).some((n) => n.startsWith('learnt-limits.json.damaged-'))).toBe(true)
    expect(client.batchSupport('alpha')).toBeNull()
    await client.rpcCalls('alpha', calls(104), opts)
    await settle()
    expect(JSON.parse(readFileSync(join(dir, 'learnt-limits.json'), 'utf8')).profiles.p.alpha.batch.limit).toBe(50)
  })

  it('refuses a save that would not load and keeps the file as it was', async () => {
    await learnBoth()
    const before = readFileSync(join(dir, 'learnt-limits.json'), 'utf8')
    const warnings: string[] = []
    const store = new LearntLimitsStore(dir, { log: { info() {}, warn: (m) => warnings.push(m), error() {} } })
    // A network name longer than the file allows: the save is refused, nothing is written.
    store.forProfile('p', () => `${server.url}/rpc`).logCaps.save('n'.repeat(300), 10)
    await store.settled()
    expect(warnings.join()).toMatch(/not saved: Nothing was saved: the learnt provider limits would not load again/)
    expect(readFileSync(join(dir, 'learnt-limits.json'), 'utf8')).toBe(before)
    // What was saved before still loads, and later saves still go through.
    const { client } = run()
    expect(client.logs.learntCap('alpha')).toBe(LOG_CAP)
    client.logs.noteCap('beta', 500)
    await settle()
    expect(run().client.logs.learntCap('beta')).toBe(500)
  })
})

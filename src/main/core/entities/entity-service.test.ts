import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SnapshotStore } from '../data/snapshot-store'
import { json, startScriptedServer, type JsonRpcCall } from '../testing/scripted-server'
import { rpcClientFixture } from '../testing/rpc-client-fixture'
import { systemClock, type Clock } from '../util/clock'
import { EntityService, FINAL_DEPTH, UNFINAL_FRESH_MS, type EntityRuntime } from './entity-service'
import { sessionTracesMemory } from './trace-support'
import { FinalAnswers } from './final-answers'
import { traceMany } from './trace-many'

/**
 * The entity reads' cache against a real HTTP endpoint: a final answer is never asked for
 * again, a non-final one is kept 60 s (or until Refresh), a cached answer of any age is shown
 * when the service fails, and the cost shown first is 0 for what is cached.
 */
const HASH = `0x${'ab'.repeat(32)}`
const A = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`
let server: Awaited<ReturnType<typeof startScriptedServer>>
let down = false
let blockNumber = 100
let dir = ''
let now = 1_700_000_000_000
let head: number | null = null
const clock: Clock = { ...systemClock, now: () => now }

function answer(c: JsonRpcCall): unknown {
  if (c.method === 'eth_getTransactionReceipt')
    return {
      transactionHash: HASH,
      blockHash: `0x${'cd'.repeat(32)}`,
      blockNumber: `0x${blockNumber.toString(16)}`,
      from: A(1),
      to: A(2),
      status: '0x1',
      gasUsed: '0x5208',
      logs: [],
    }
  if (c.method === 'eth_getBlockByNumber')
    return {
      number: c.params[0],
      hash: `0x${'ef'.repeat(32)}`,
      parentHash: `0x${'ee'.repeat(32)}`,
      timestamp: '0x6553f100',
      miner: A(7),
      baseFeePerGas: '0x7',
      gasUsed: '0x0',
      gasLimit: '0x1c9c380',
      transactions: [],
    }
  return null
}

const script = (req: { body: string }, res: import('node:http').ServerResponse): void => {
  if (down) return json(res, 503, { message: 'down' })
  const c = JSON.parse(req.body) as JsonRpcCall
  json(res, 200, { jsonrpc: '2.0', id: c.id, result: answer(c) })
}

beforeAll(async () => {
  server = await startScriptedServer()
  dir = mkdtempSync(join(tmpdir(), 'entity-service-'))
})
afterAll(async () => {
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})
beforeEach(() => {
  server.script(script)
  server.seen.length = 0
  down = false
  head = null
  blockNumber = 100
})

function setup(billing: 'request' | 'call' = 'request', finals?: FinalAnswers) {
  const { client, limiter } = rpcClientFixture(server.url, { billing, client: { maxAttempts: 1 } })
  const rt: EntityRuntime = { profileId: 'p', client, limiters: { state: () => limiter.state() } }
  const snapshots = new SnapshotStore({ root: join(dir, `s-${Math.random()}`) })
  const traces = sessionTracesMemory()
  const service = new EntityService({ snapshots, headOf: () => head, traces: () => traces, clock, finals })
  return { rt, service }
}

describe('entity reads: cache and finality', () => {
  it('never asks again for a final receipt, even on Refresh', async () => {
    const { rt, service } = setup()
    head = blockNumber + FINAL_DEPTH
    const first = await service.receipt(rt, 'alpha', HASH)
    expect(first).toMatchObject({ final: true, source: 'network', cost: { requests: 1, units: 1 } })
    now += 365 * 24 * 3600_000
    const again = await service.receipt(rt, 'alpha', HASH, true)
    expect(again).toMatchObject({ final: true, source: 'cache', cost: { units: 0 }, fetchedAt: first.fetchedAt })
    expect(server.seen.length).toBe(1)
    expect(await service.cost(rt, 'alpha', 'receipt', HASH)).toMatchObject({ requests: 0, cached: true })
  })

  it('keeps a final answer on disk: a restart answers it with no request; a profile forgotten reads it again', async () => {
    const finals = new FinalAnswers(join(dir, 'finals'))
    head = blockNumber + FINAL_DEPTH
    const first = setup('request', finals)
    const read = await first.service.receipt(first.rt, 'alpha', HASH)
    expect((await first.service.block(first.rt, 'alpha', 1)).final).toBe(true)
    const restarted = setup('request', new FinalAnswers(join(dir, 'finals')))
    expect(await restarted.service.cost(restarted.rt, 'alpha', 'receipt', HASH)).toMatchObject({ requests: 0 })
    expect(await restarted.service.receipt(restarted.rt, 'alpha', HASH)).toEqual({
      ...read,
      source: 'cache',
      cost: { requests: 0, units: 0 },
    })
    expect(server.seen.length).toBe(2)
    await restarted.service.forget('p')
    expect((await setup('request', finals).service.receipt(restarted.rt, 'alpha', HASH)).source).toBe('network')
    expect(server.seen.length).toBe(3)
  })

  it('keeps a non-final answer 60 s, then reads it again; Refresh reads it at once', async () => {
    const { rt, service } = setup()
    head = blockNumber + FINAL_DEPTH - 1
    expect((await service.block(rt, 'alpha', 5_000)).final).toBe(false)
    expect((await service.receipt(rt, 'alpha', HASH)).final).toBe(false)
    now += UNFINAL_FRESH_MS - 1
    expect((await service.receipt(rt, 'alpha', HASH)).source).toBe('cache')
    expect(server.seen.length).toBe(2)
    expect((await service.receipt(rt, 'alpha', HASH, true)).source).toBe('network')
    now += UNFINAL_FRESH_MS
    expect(await service.cost(rt, 'alpha', 'receipt', HASH)).toMatchObject({ requests: 1, cached: false })
    expect((await service.receipt(rt, 'alpha', HASH)).source).toBe('network')
    expect(server.seen.length).toBe(4)
  })

  it('shows a cached answer of any age when the service fails', async () => {
    const { rt, service } = setup()
    const first = await service.block(rt, 'alpha', 42)
    now += 10 * UNFINAL_FRESH_MS
    down = true
    const shown = await service.block(rt, 'alpha', 42)
    expect(shown).toMatchObject({ source: 'cache', number: 42, fetchedAt: first.fetchedAt })
    await expect(service.block(rt, 'alpha', 43)).rejects.toMatchObject({ kind: 'server' })
  })

  it("stops a run of traces at the day's quota, answering what it traced; run again for the rest", async () => {
    const { rt, service } = setup()
    let traced = 0
    server.script((req, res) => {
      const c = JSON.parse(req.body) as JsonRpcCall
      if (traced++ > 0)
        return json(res, 402, {
          jsonrpc: '2.0',
          id: c.id,
          error: { code: -33000, message: 'daily request count exceeded' },
        })
      json(res, 200, {
        jsonrpc: '2.0',
        id: c.id,
        result: { type: 'CALL', from: A(1), to: A(2), calls: [{ type: 'CALL', from: A(2), to: A(3), value: '0x5' }] },
      })
    })
    const run = await traceMany(service, rt, 'alpha', [HASH, `0x${'cd'.repeat(32)}`, `0x${'ef'.repeat(32)}`])
    expect(run.traced.map((v) => v.transfers)).toEqual([[{ from: A(2), to: A(3), value: '5', kind: 'call', depth: 1 }]])
    expect(run.stopped).toMatch(/^Stopped after 1 of 3: .*Run it again to trace the rest\.$/)
    expect(run.failed).toEqual([])
  })

  it('refuses a block answered for another number', async () => {
    const { rt, service } = setup()
    server.script((req, res) => {
      const c = JSON.parse(req.body) as JsonRpcCall
      json(res, 200, { jsonrpc: '2.0', id: c.id, result: { ...(answer(c) as object), number: '0x2b' } })
    })
    await expect(service.block(rt, 'alpha', 42)).rejects.toThrow(
      'The RPC endpoint answered block 43 when asked for block 42; it is not shown.',
    )
  })

  it("costs a trace on an untried provider up to two calls, a proxy read three slots in the profile's unit", async () => {
    const { rt, service } = setup('call')
    expect(await service.cost(rt, 'alpha', 'trace', HASH)).toMatchObject({ requests: 1, upTo: 2, billing: 'call' })
    expect(await service.cost(rt, 'alpha', 'proxy', A(3))).toMatchObject({ requests: 3, upTo: 3 })
    const perRequest = setup('request')
    expect(await perRequest.service.cost(perRequest.rt, 'alpha', 'proxy', A(3))).toMatchObject({ requests: 1 })
    expect(await service.cost(rt, 'alpha', 'block-full', '12')).toMatchObject({ requests: 1 })
  })
})

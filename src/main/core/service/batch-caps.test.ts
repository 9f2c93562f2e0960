import type { ServerResponse } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { systemClock, type Clock } from '../util/clock'
import { json, startScriptedServer, type Seen } from '../testing/scripted-server'
import { rpcClientFixture } from '../testing/rpc-client-fixture'
import { PROBE_EVERY_MS } from './batch-sizes'

/**
 * Batches on a provider with a batch cap, refused in each form the real ones use: split and
 * sent again, the size that works remembered and probed upward now and then, batching never
 * turned off by a size refusal; items refused for rate inside an answered batch sent again alone.
 */
type Form = 'geth' | 'besu' | 'http-413' | 'non-array' | 'http-400-words' | 'per-item' | 'first-n'

interface Call {
  id: number
  method: string
  params: unknown[]
}

let server: Awaited<ReturnType<typeof startScriptedServer>>
let cap = 50
let form: Form = 'geth'
/** Per call param: how many more times an item is refused for rate inside a batch. */
let itemRefusals = new Map<string, number>()
let sizes: number[] = []

function refuseBatch(res: ServerResponse, body: Call[]): void {
  switch (form) {
    case 'per-item':
      return json(
        res,
        200,
        body.map((c) => ({ jsonrpc: '2.0', id: c.id, error: { code: -32600, message: 'batch size limit exceeded' } })),
      )
    case 'first-n':
      return json(
        res,
        200,
        body.slice(0, cap).map((c) => ({ jsonrpc: '2.0', id: c.id, result: String(c.params[0]) })),
      )
    case 'geth':
      return json(res, 200, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large' } })
    case 'besu':
      return json(res, 200, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32005, message: 'Number of requests exceeds max batch size' },
      })
    case 'http-413':
      res.writeHead(413, { 'content-type': 'text/plain' })
      return void res.end('Request Entity Too Large')
    case 'non-array':
      return json(res, 200, { jsonrpc: '2.0', id: 1, result: '0x0' })
    case 'http-400-words':
      res.writeHead(400, { 'content-type': 'application/json' })
      return void res.end(JSON.stringify({ error: `batch size limit exceeded: at most ${cap} requests per batch` }))
  }
}

function answer(req: Seen, res: ServerResponse): void {
  const body = JSON.parse(req.body) as Call | Call[]
  if (!Array.isArray(body)) {
    const key = String(body.params[0])
    const left = itemRefusals.get(key) ?? 0
    itemRefusals.set(key, left - 1)
    return left > 0
      ? json(res, 200, { jsonrpc: '2.0', id: body.id, error: { code: -32012, message: 'credits limited to 6000/sec' } })
      : json(res, 200, { jsonrpc: '2.0', id: body.id, result: key })
  }
  sizes.push(body.length)
  if (body.length > cap) return refuseBatch(res, body)
  json(
    res,
    200,
    body.map((c) => {
      const key = String(c.params[0])
      const left = itemRefusals.get(key) ?? 0
      if (left > 0) {
        itemRefusals.set(key, left - 1)
        return { jsonrpc: '2.0', id: c.id, error: { code: -32012, message: 'credits limited to 6000/sec' } }
      }
      return { jsonrpc: '2.0', id: c.id, result: key }
    }),
  )
}

beforeAll(async () => {
  server = await startScriptedServer()
  server.script(answer)
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  sizes = []
  itemRefusals = new Map()
})

const calls = (n: number) => Array.from({ length: n }, (_, i) => ({ method: 'eth_getBalance', params: [`0x${i}`] }))
const results = (n: number) => Array.from({ length: n }, (_, i) => ({ ok: true, result: `0x${i}` }))
const opts = { priority: 'user' as const }

describe('rpcCalls on a provider with a batch cap', () => {
  it.each([
    ['geth: one -32600 "batch too large" object', 'geth', 50],
    ['Besu: -32005 "Number of requests exceeds max batch size"', 'besu', 50],
    ['HTTP 413', 'http-413', 20],
    ['a single result instead of a list', 'non-array', 30],
    ['HTTP 400 naming the cap', 'http-400-words', 20],
    ['every call answered "batch size limit exceeded"', 'per-item', 25],
    ['only the first N calls answered', 'first-n', 40],
  ] as const)('splits a refused batch and keeps the size that works (%s)', async (_name, f, c) => {
    form = f
    cap = c
    const { client } = rpcClientFixture(server.url, { billing: 'call' })
    const meter = { requests: 0, units: 0 }
    expect(await client.rpcCalls('alpha', calls(104), { ...opts, meter })).toEqual(results(104))
    // Only the first 100 was ever refused; everything after fits the cap.
    expect(sizes.filter((s) => s > cap)).toEqual(sizes.slice(0, sizes.filter((s) => s > cap).length))
    expect(client.batchSupport('alpha')).toBe(true)
    const learnt = sizes.filter((s) => s <= cap).reduce((a, b) => Math.max(a, b), 0)
    expect(learnt).toBeGreaterThanOrEqual(cap / 2)
    // The next check plans and sends in that size, nothing refused, and costs what was planned.
    sizes = []
    const planned = client.unitsFor('alpha', 104)
    const again = { requests: 0, units: 0 }
    await client.rpcCalls('alpha', calls(104), { ...opts, meter: again })
    expect(sizes.every((s) => s <= cap)).toBe(true)
    expect(again.units).toBe(planned)
    expect(meter.units).toBeGreaterThan(again.units)
  })

  it('probes a larger size now and then, and finds a cap the provider raised', async () => {
    form = 'geth'
    cap = 50
    let skew = 0
    const clock: Clock = { ...systemClock, now: () => Date.now() + skew }
    const { client } = rpcClientFixture(server.url, { client: { clock } })
    await client.rpcCalls('alpha', calls(104), opts)
    sizes = []
    await client.rpcCalls('alpha', calls(104), opts)
    expect(Math.max(...sizes)).toBe(50)
    // The provider raises its cap; ten minutes on, one larger batch is tried, then kept.
    cap = 100
    skew = PROBE_EVERY_MS
    sizes = []
    await client.rpcCalls('alpha', calls(104), opts)
    expect(sizes[0]).toBeGreaterThan(50)
    // A probe that was taken lets the next check probe again: a few checks find the new cap.
    for (let check = 0; check < 8 && !sizes.includes(100); check++) await client.rpcCalls('alpha', calls(104), opts)
    expect(sizes).toContain(100)
    sizes = []
    await client.rpcCalls('alpha', calls(104), opts)
    expect(sizes).toEqual([100, 4])
  })

  it('turns batching off only where a batch of 2 is refused', async () => {
    form = 'non-array'
    cap = 1
    const { client } = rpcClientFixture(server.url)
    expect(await client.rpcCalls('alpha', calls(5), opts)).toEqual(results(5))
    expect(client.batchSupport('alpha')).toBe(false)
    expect(client.unitsFor('alpha', 5)).toBe(5)
    expect(client.batchSupport('beta')).toBeNull()
  })

  it('sends again, alone and after a pause, the items refused for rate inside an answered batch; keeps the others', async () => {
    form = 'geth'
    cap = 100
    itemRefusals = new Map([
      ['0x3', 1],
      ['0x7', 1],
      ['0x9', 1],
    ])
    const { client } = rpcClientFixture(server.url, { billing: 'call-plus-batch' })
    const meter = { requests: 0, units: 0 }
    expect(await client.rpcCalls('alpha', calls(12), { ...opts, meter })).toEqual(results(12))
    // The batch of 12, then the three refused items alone (a batch of 3): 13 + 4 units.
    expect(sizes).toEqual([12, 3])
    expect(meter).toEqual({ requests: 2, units: 17 })
  })

  it('keeps an item the provider still refuses after two rounds as its error', async () => {
    form = 'geth'
    cap = 100
    itemRefusals = new Map([['0x1', 99]])
    const { client } = rpcClientFixture(server.url, { client: { maxAttempts: 1 } })
    const out = await client.rpcCalls('alpha', calls(3), opts)
    expect(out[0]).toEqual({ ok: true, result: '0x0' })
    expect(out[1]).toMatchObject({ ok: false, code: -32012, message: expect.stringContaining('credits limited') })
    expect(out[2]).toEqual({ ok: true, result: '0x2' })
  })
})

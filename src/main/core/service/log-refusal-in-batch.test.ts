import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { json, startScriptedServer, type JsonRpcCall as Call } from '../testing/scripted-server'
import { rpcClientFixture } from '../testing/rpc-client-fixture'
import { logRangeRefusalOfItem } from './log-range-refusal'

/**
 * A gateway that refuses a too-wide `eth_getLogs` with an HTTP 413 for the whole request (its
 * words: "eth_getLogs and eth_newFilter are limited to a 10,000 blocks range"), alone or inside
 * a batch. The batch's size is not what was refused: batching stays on at its size, the other
 * calls are answered, and the logs call carries the refusal for its caller to split.
 */
const CAP = 10_000
const BATCH_CAP = 5
let server: Awaited<ReturnType<typeof startScriptedServer>>
let sizes: number[] = []

const tooWide = (c: Call): boolean => {
  if (c.method !== 'eth_getLogs') return false
  const f = c.params[0] as { fromBlock: string; toBlock: string }
  return Number(f.toBlock) - Number(f.fromBlock) + 1 > CAP
}

beforeAll(async () => {
  server = await startScriptedServer()
  server.script((req, res) => {
    const body = JSON.parse(req.body) as Call | Call[]
    const calls = Array.isArray(body) ? body : [body]
    if (Array.isArray(body)) sizes.push(body.length)
    if (calls.length > BATCH_CAP)
      return json(res, 200, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large' } })
    if (calls.some(tooWide)) {
      res.writeHead(413, { 'content-type': 'text/plain' })
      return void res.end('eth_getLogs and eth_newFilter are limited to a 10,000 blocks range')
    }
    const one = (c: Call) => ({ jsonrpc: '2.0', id: c.id, result: c.method === 'eth_getLogs' ? [] : '0x1' })
    json(res, 200, Array.isArray(body) ? body.map(one) : one(body))
  })
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  sizes = []
})

const logs = (from: number, to: number) => ({
  method: 'eth_getLogs',
  params: [{ fromBlock: `0x${from.toString(16)}`, toBlock: `0x${to.toString(16)}` }],
})
const balance = { method: 'eth_getBalance', params: ['0x1', 'latest'] }
const opts = { priority: 'user' as const }

describe('an eth_getLogs refused for its range by an HTTP 413 to the whole request', () => {
  it('inside a batch: the other calls are answered, the logs call carries the cap, batching stays on', async () => {
    const { client } = rpcClientFixture(server.url)
    const out = await client.rpcCalls('alpha', [balance, logs(0, 50_000), balance, logs(0, 99)], opts)
    expect(out[0]).toEqual({ ok: true, result: '0x1' })
    expect(out[2]).toEqual({ ok: true, result: '0x1' })
    // Both logs calls were in the refused request: each carries the words, the narrow one too.
    expect(logRangeRefusalOfItem(out[1]!)).toMatchObject({ kind: 'range', cap: CAP })
    expect(out[3]!.ok).toBe(false)
    expect(client.batchSupport('alpha')).toBe(true)
    expect(client.batchSize('alpha')).toBe(100)
    // The calls left were sent again together: one batch, never split for size.
    expect(sizes).toEqual([4, 2])
  })

  it('alone: the call is answered with the refusal (not thrown), and the chunked read splits to the cap', async () => {
    const { client } = rpcClientFixture(server.url)
    const out = await client.rpcCalls('alpha', [logs(0, 50_000)], opts)
    expect(logRangeRefusalOfItem(out[0]!)).toMatchObject({ kind: 'range', cap: CAP })
    expect(await client.logs.getLogsChunked({ network: 'alpha', fromBlock: 0, toBlock: 49_999 }, opts)).toEqual([])
    expect(client.logs.learntCap('alpha')).toBe(CAP)
  })

  it('a batch with logs in it refused in words about its size is split for its size', async () => {
    const { client } = rpcClientFixture(server.url)
    const out = await client.rpcCalls('alpha', [balance, balance, balance, balance, balance, logs(0, 99)], opts)
    expect(out.every((o) => o.ok)).toBe(true)
    expect(client.batchSize('alpha')).toBeLessThanOrEqual(BATCH_CAP)
  })
})

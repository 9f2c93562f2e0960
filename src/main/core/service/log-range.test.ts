import type { ServerResponse } from 'node:http'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { json, startScriptedServer, type Seen } from '../testing/scripted-server'
import { rpcClientFixture } from '../testing/rpc-client-fixture'

/**
 * `eth_getLogs` against a provider with a range cap, in each dialect of the real ones: every
 * log comes back exactly once and in order, the cap is learnt, and no later request exceeds it.
 */
type Dialect = 'max-range' | 'too-wide' | 'http-413' | 'alchemy' | 'infura' | 'results'

interface Provider {
  cap: number
  dialect: Dialect
  /** For the result-count dialects: the most logs one answer holds. */
  maxLogs?: number
  /** Blocks that carry a log. */
  logAt: (block: number) => boolean
}

const hex = (n: number): string => `0x${n.toString(16)}`
const LOG_EVERY = 7
const everySeventh = (b: number): boolean => b % LOG_EVERY === 0

let server: Awaited<ReturnType<typeof startScriptedServer>>
let provider: Provider
/** Each eth_getLogs asked for, with whether it was refused. */
let asked: { from: number; to: number; refused: boolean }[] = []

function refuse(res: ServerResponse, id: unknown, from: number, to: number): void {
  const p = provider
  const ok = (n: number): string => hex(from + n - 1)
  switch (p.dialect) {
    case 'max-range':
      return json(res, 200, {
        jsonrpc: '2.0',
        id,
        error: { code: -32602, message: `query exceeds max block range ${p.cap}` },
      })
    case 'too-wide':
      return json(res, 200, { jsonrpc: '2.0', id, error: { code: -32600, message: 'block range is too wide' } })
    case 'http-413':
      res.writeHead(413, { 'content-type': 'text/plain' })
      return void res.end(
        `eth_getLogs and eth_newFilter are limited to a ${p.cap.toLocaleString('en-US')} blocks range`,
      )
    case 'alchemy':
      return json(res, 200, {
        jsonrpc: '2.0',
        id,
        error: {
          code: -32602,
          message: `Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters, this block range should work: [${hex(from)}, ${ok(p.cap)}]`,
        },
      })
    case 'infura':
      return json(res, 200, {
        jsonrpc: '2.0',
        id,
        error: {
          code: -32005,
          message: `query returned more than 10000 results. Try with this block range [${hex(from)}, ${ok(p.cap)}].`,
          data: { from: hex(from), to: ok(p.cap), limit: 10000 },
        },
      })
    case 'results':
      return json(res, 200, {
        jsonrpc: '2.0',
        id,
        error: { code: -32005, message: 'query returned more than 10000 results' },
      })
  }
  void to
}

function answer(req: Seen, res: ServerResponse): void {
  const body = JSON.parse(req.body) as { id: unknown; method: string; params: [{ fromBlock: string; toBlock: string }] }
  const from = Number.parseInt(body.params[0].fromBlock, 16)
  const to = Number.parseInt(body.params[0].toBlock, 16)
  const blocks: number[] = []
  for (let b = from; b <= to; b++) if (provider.logAt(b)) blocks.push(b)
  const tooMany = provider.maxLogs !== undefined && blocks.length > provider.maxLogs
  const refused = to - from + 1 > provider.cap || tooMany
  asked.push({ from, to, refused })
  if (refused) return refuse(res, body.id, from, to)
  json(res, 200, { jsonrpc: '2.0', id: body.id, result: blocks.map((b) => ({ blockNumber: hex(b), logIndex: '0x0' })) })
}

beforeAll(async () => {
  server = await startScriptedServer()
  server.script(answer)
})
afterAll(async () => {
  await server.close()
})

const expected = (from: number, to: number): string[] => {
  const out: string[] = []
  for (let b = from; b <= to; b++) if (everySeventh(b)) out.push(hex(b))
  return out
}
const blocksOf = (logs: unknown[]): string[] => logs.map((l) => (l as { blockNumber: string }).blockNumber)

describe('LogRanges.getLogsChunked', () => {
  it.each([
    ['-32602 "query exceeds max block range N"', 'max-range', 1000],
    ['-32600 "block range is too wide" (cap unnamed)', 'too-wide', 700],
    ['HTTP 413 "limited to a 10,000 blocks range"', 'http-413', 10_000],
  ] as const)('reads a range past the cap whole, in order, and learns the cap (%s)', async (_name, dialect, cap) => {
    provider = { cap, dialect, logAt: everySeventh }
    asked = []
    const { client } = rpcClientFixture(server.url)
    const from = 5_000_001
    const to = from + 3 * cap + 123
    const progress: number[] = []
    const logs = await client.logs.getLogsChunked(
      { network: 'alpha', fromBlock: from, toBlock: to, topics: [null] },
      { priority: 'user', onProgress: (p) => progress.push(p.doneBlocks) },
    )
    expect(blocksOf(logs)).toEqual(expected(from, to))
    // Answered parts tile the range: each starts where the last ended.
    const answered = asked.filter((a) => !a.refused)
    expect(answered[0]!.from).toBe(from)
    expect(answered.at(-1)!.to).toBe(to)
    answered.slice(1).forEach((a, i) => expect(a.from).toBe(answered[i]!.to + 1))
    expect(progress.at(-1)).toBe(to - from + 1)
    const learnt = client.logs.learntCap('alpha')
    // Learnt at most the cap; where the provider named or suggested it, exactly.
    expect(learnt).not.toBeNull()
    expect(learnt!).toBeLessThanOrEqual(cap)
    if (dialect !== 'too-wide') expect(learnt).toBe(cap)
    // A second read starts at the learnt size: nothing refused, as planned.
    asked = []
    expect(client.logs.plannedLogCalls(to + 1, to + 2 * cap, 'alpha')).toBe(Math.ceil((2 * cap) / learnt!))
    await client.logs.getLogsChunked(
      { network: 'alpha', fromBlock: to + 1, toBlock: to + 2 * cap },
      { priority: 'user' },
    )
    expect(asked.every((a) => !a.refused)).toBe(true)
    expect(asked).toHaveLength(client.logs.plannedLogCalls(to + 1, to + 2 * cap, 'alpha'))
    // The other network has learnt nothing.
    expect(client.logs.learntCap('beta')).toBeNull()
  })

  it.each([
    ['-32602 "Log response size exceeded ... should work: [..]"', 'alchemy'],
    ['Infura\'s "Try with this block range [..]" with data {from, to}', 'infura'],
  ] as const)('asks next for exactly the range the provider suggests (%s)', async (_name, dialect) => {
    const cap = 1500
    provider = { cap, dialect, logAt: everySeventh }
    asked = []
    const { client } = rpcClientFixture(server.url)
    const from = 5_000_001
    const to = from + 3 * cap + 123
    const logs = await client.logs.getLogsChunked(
      { network: 'alpha', fromBlock: from, toBlock: to },
      { priority: 'user' },
    )
    expect(blocksOf(logs)).toEqual(expected(from, to))
    expect(asked.some((a) => a.refused)).toBe(true)
    asked.forEach((a, i) => {
      if (a.refused) expect(asked[i + 1]).toEqual({ from: a.from, to: a.from + cap - 1, refused: false })
    })
    // Said of the logs' count, not the range: a sparser stretch may take more, so no cap is kept.
    expect(client.logs.learntCap('alpha')).toBeNull()
  })

  it('splits a range refused for its result count without taking it for a range cap', async () => {
    provider = { cap: Infinity, dialect: 'results', maxLogs: 40, logAt: everySeventh }
    asked = []
    const { client } = rpcClientFixture(server.url)
    const logs = await client.logs.getLogsChunked(
      { network: 'alpha', fromBlock: 0, toBlock: 999 },
      { priority: 'user' },
    )
    expect(blocksOf(logs)).toEqual(expected(0, 999))
    expect(client.logs.learntCap('alpha')).toBeNull()
    expect(client.logs.plannedLogCalls(0, 999, 'alpha')).toBe(1)
    // Nothing learnt: a preview may assume a cap instead.
    expect(client.logs.plannedLogCalls(0, 999, 'alpha', 100)).toBe(10)
    expect(client.logs.plannedLogCalls(5, 4, 'alpha', 100)).toBe(0)
  })

  it('gives up on a single block the provider still refuses, naming its words', async () => {
    provider = { cap: 0, dialect: 'max-range', logAt: everySeventh }
    asked = []
    const { client } = rpcClientFixture(server.url)
    await expect(
      client.logs.getLogsChunked({ network: 'alpha', fromBlock: 10, toBlock: 13 }, { priority: 'user' }),
    ).rejects.toMatchObject({ kind: 'rpc', message: expect.stringContaining('max block range 0') })
  })

  it('property: for any cap and range, the parts cover the range once, in order, and none exceeds a learnt cap', async () => {
    const dialects: Dialect[] = ['max-range', 'too-wide', 'http-413']
    // At most 30 parts a read: enough to meet every case, few enough requests to stay quick.
    const capAndLength = fc
      .integer({ min: 1, max: 3000 })
      .chain((cap) => fc.tuple(fc.constant(cap), fc.integer({ min: 1, max: cap * 30 })))
    await fc.assert(
      fc.asyncProperty(
        capAndLength,
        fc.integer({ min: 0, max: 20_000_000 }),
        fc.constantFrom(...dialects),
        async ([cap, length], from, dialect) => {
          provider = { cap, dialect, logAt: (b) => b % 997 === 0 }
          asked = []
          const { client } = rpcClientFixture(server.url)
          const to = from + length - 1
          const logs = await client.logs.getLogsChunked(
            { network: 'alpha', fromBlock: from, toBlock: to },
            { priority: 'user' },
          )
          const want: string[] = []
          for (let b = from; b <= to; b++) if (b % 997 === 0) want.push(hex(b))
          expect(blocksOf(logs)).toEqual(want)
          const answered = asked.filter((a) => !a.refused)
          expect(answered[0]!.from).toBe(from)
          expect(answered.at(-1)!.to).toBe(to)
          answered.slice(1).forEach((a, i) => expect(a.from).toBe(answered[i]!.to + 1))
          // Once a part has been taken, no request exceeds the cap.
          const firstOk = asked.findIndex((a) => !a.refused)
          expect(asked.slice(firstOk).every((a) => a.to - a.from + 1 <= cap)).toBe(true)
        },
      ),
      { numRuns: 60 },
    )
  })
})

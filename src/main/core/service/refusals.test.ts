import type { ServerResponse } from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { json, startScriptedServer, type Seen } from '../testing/scripted-server'
import { rpcClientFixture } from '../testing/rpc-client-fixture'
import { balanceItem } from '../testing/service-fixtures'
import { rpcRefusal } from './body-refusals'

/**
 * Refusals in each provider's dialect: Infura's HTTP 402 daily cap, rate limits said inside an
 * HTTP 200 body (code 429, -32005 "limit exceeded", -33300, -32012 credits), Blockscout's
 * `{"message":"429 Too Many Requests","status":"0"}`. Each is read as what it means.
 */
let server: Awaited<ReturnType<typeof startScriptedServer>>
/** The answers the next requests get, in order; then a plain success. */
let refusals: ((req: Seen, res: ServerResponse) => void)[] = []

function success(req: Seen, res: ServerResponse): void {
  if (req.method === 'GET') return json(res, 200, { items: [balanceItem()], next_page_params: null })
  const body = JSON.parse(req.body) as { id: number }
  json(res, 200, { jsonrpc: '2.0', id: body.id, result: '0x2a' })
}

beforeAll(async () => {
  server = await startScriptedServer()
  server.script((req, res) => (refusals.shift() ?? success)(req, res))
})
afterAll(async () => {
  await server.close()
})
beforeEach(() => {
  refusals = []
  server.seen.length = 0
})

const inBody =
  (code: number, message: string) =>
  (req: Seen, res: ServerResponse): void => {
    const body = JSON.parse(req.body) as { id: number }
    json(res, 200, { jsonrpc: '2.0', id: body.id, error: { code, message } })
  }
const call = { method: 'eth_blockNumber', params: [] }
const opts = { priority: 'user' as const }

describe('refusals said in an HTTP 200 body', () => {
  it.each([
    ['code 429', 429, 'Too Many Requests'],
    ['-32005 "limit exceeded"', -32005, 'limit exceeded'],
    ['-33300', -33300, 'project ID request rate exceeded'],
    ['-32012 "credits limited to 6000/sec"', -32012, 'credits limited to 6000/sec'],
  ])('are rate limits: paused, then sent again (%s)', async (_name, code, message) => {
    refusals = [inBody(code, message)]
    const { client, limiter } = rpcClientFixture(server.url)
    expect(await client.rpc('alpha', call, opts)).toBe('0x2a')
    expect(server.seen).toHaveLength(2)
    expect(limiter.state().usedToday).toBe(2)
  })

  it('says plainly what happened when the refusals go on', async () => {
    refusals = [inBody(-32005, 'limit exceeded'), inBody(-32005, 'limit exceeded')]
    const { client } = rpcClientFixture(server.url, { client: { maxAttempts: 2 } })
    await expect(client.rpc('alpha', call, opts)).rejects.toMatchObject({
      kind: 'rate-limited',
      message: expect.stringMatching(
        /refusing requests .*slow down on eth_blockNumber on alpha \(JSON-RPC error -32005: limit exceeded\)/,
      ),
    })
  })

  it('a Blockscout-style "429 Too Many Requests" data API body is a rate limit too', async () => {
    refusals = [(_req, res) => json(res, 200, { message: '429 Too Many Requests', result: null, status: '0' })]
    const { client } = rpcClientFixture(server.url)
    const balances = await client.data.balances('alpha', '0x00000000000000000000000000000000000000a1', opts)
    expect(balances.items).toHaveLength(1)
    expect(server.seen).toHaveLength(2)
  })

  it('tells a contract revert or a log range apart from a rate limit', () => {
    expect(rpcRefusal({ code: -32000, message: 'execution reverted: rate limit exceeded for this pool' })).toBeNull()
    expect(rpcRefusal({ code: -32005, message: 'query returned more than 10000 results' })).toBeNull()
    expect(rpcRefusal({ code: -32005, message: 'Number of requests exceeds max batch size' })).toBeNull()
    expect(rpcRefusal({ code: -32602, message: 'invalid argument 0: hex string has length 3' })).toBeNull()
    expect(rpcRefusal({ code: -32000, message: 'header not found' })).toBeNull()
    expect(rpcRefusal({ code: -32000, message: 'transaction gas limit exceeded' })).toBeNull()
    expect(rpcRefusal({ code: -32000, message: 'failed to generate the trace' })).toBeNull()
    expect(rpcRefusal({ code: -32000, message: 'max fee per gas less than block base fee' })).toBeNull()
    expect(rpcRefusal({ code: -32016, message: 'over rate limit' })).toBe('rate')
  })
})

describe("the service's daily quota", () => {
  it('HTTP 402 (Infura, -33000) means used up until 00:00 UTC: the meter follows the service', async () => {
    refusals = [
      (req, res) => {
        const body = JSON.parse(req.body) as { id: number }
        json(res, 402, {
          jsonrpc: '2.0',
          id: body.id,
          error: { code: -33000, message: 'daily request count exceeded, request rate limited' },
        })
      },
    ]
    const { client, limiter } = rpcClientFixture(server.url)
    const error = await client.rpc('alpha', call, opts).catch((e: unknown) => e)
    expect(error).toMatchObject({
      kind: 'quota-exhausted',
      message: 'Daily quota used up at the service (HTTP 402 Payment Required) until 00:00 UTC.',
    })
    expect(server.seen).toHaveLength(1)
    expect(limiter.state().leftToday).toBe(0)
  })

  it('-33000 inside a 200 body means the same', async () => {
    refusals = [inBody(-33000, 'daily request count exceeded, request rate limited')]
    const { client, limiter } = rpcClientFixture(server.url)
    await expect(client.rpc('alpha', call, opts)).rejects.toMatchObject({
      kind: 'quota-exhausted',
      message: expect.stringContaining('until 00:00 UTC'),
    })
    expect(limiter.state().leftToday).toBe(0)
  })
})

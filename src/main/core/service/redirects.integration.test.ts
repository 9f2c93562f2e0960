import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { BridgeCallInput } from '@shared/bridge/contract'
import { json, startScriptedServer, type Seen } from '../testing/scripted-server'
import { scriptedCore } from '../testing/scripted-core'
import { MAX_REDIRECTS } from './redirects'

/**
 * Redirects through the bridge, as the renderer calls it, against real HTTP servers on
 * loopback: every hop is a request of the limiter and the daily quota, the chain is short,
 * and the key never follows a redirect to another origin (a second server on another port).
 */
const KEY = 'sk_live_REDIRECTKEY0123456789abcdefghij'
let service: Awaited<ReturnType<typeof startScriptedServer>>
let elsewhere: Awaited<ReturnType<typeof startScriptedServer>>
let app: Awaited<ReturnType<typeof scriptedCore>>

beforeAll(async () => {
  service = await startScriptedServer()
  elsewhere = await startScriptedServer()
  elsewhere.script((_req, res) => json(res, 200, { items: [], next_page_params: null }))
})
afterAll(async () => {
  await service.close()
  await elsewhere.close()
})

beforeEach(async () => {
  service.seen.length = 0
  elsewhere.seen.length = 0
  app = await scriptedCore({
    serviceUrl: service.url,
    key: KEY,
    limits: { ratePerSecond: 1000, burst: 50, quotaPerDay: 10, scope: 'key' },
    // One attempt each: the test counts hops, not retries.
    tuning: { client: { timeoutMs: 2000, maxAttempts: 1 } },
  })
})
afterEach(() => app.dispose())

const balances = (i: number): BridgeCallInput<'data.balances'> => ({
  network: 'alpha',
  address: `0x${i.toString(16).padStart(40, '0')}`,
  priority: 'user',
  refresh: true,
})
const query = (req: Seen): string => req.query.toString()

describe('redirects', () => {
  it('a 301 from /balance to /balances is two requests: under a quota of 10, no more than 10 reach the service', async () => {
    service.script((req, res) => {
      if (req.path.endsWith('/balance'))
        return json(res, 301, {}, { location: `${req.path.replace(/balance$/, 'balances')}?${query(req)}` })
      json(res, 200, { items: [], next_page_params: null })
    })
    const outcomes = []
    for (let i = 1; i <= 10; i++) outcomes.push(await app.failure('data.balances', balances(i)))
    expect(service.seen.length).toBeLessThanOrEqual(10)
    // Each call that got its answer paid for both hops; the rest were refused by the daily quota.
    const answered = outcomes.filter((o) => o === 'ok').length
    expect(answered).toBe(5)
    expect(service.seen.length).toBe(2 * answered)
    expect(outcomes.filter((o) => o !== 'ok')).toEqual(
      Array.from({ length: 5 }, () => expect.objectContaining({ kind: 'quota-exhausted' })),
    )
    const state = await app.call('limiter.state', {})
    expect(state.usedToday).toBe(service.seen.length)
  })

  it('follows a same-origin 307 of an RPC call with its body, as one more request', async () => {
    service.script((req, res) => {
      if (req.path.startsWith('/rpc/')) return json(res, 307, {}, { location: `/v2${req.path}` })
      const { id } = JSON.parse(req.body) as { id: number }
      json(res, 200, { jsonrpc: '2.0', id, result: '0x2a' })
    })
    const out = await app.call('rpc.call', { network: 'alpha', method: 'eth_blockNumber', params: [] })
    expect(out.result).toBe('0x2a')
    expect(service.seen.map((s) => [s.method, s.path])).toEqual([
      ['POST', `/rpc/alpha/${KEY}`],
      ['POST', `/v2/rpc/alpha/${KEY}`],
    ])
    expect((await app.call('limiter.state', {})).usedToday).toBe(2)
  })

  it.each([
    ['the data API', 'data.balances', balances(1)],
    ['the RPC endpoint', 'rpc.call', { network: 'alpha', method: 'eth_blockNumber', params: [] }],
  ] as const)(
    'a redirect of %s to another origin is refused: the other server receives nothing, the key included',
    async (_what, name, input) => {
      service.script((req, res) =>
        // The Location echoes the key, as a careless or hostile service would.
        json(res, 302, {}, { location: `${elsewhere.url}${req.path}?${query(req)}&k=${KEY}` }),
      )
      const error = await app.failure(name, input as never)
      expect(error).toMatchObject({ kind: 'protocol', message: expect.stringMatching(/another address/) })
      expect(JSON.stringify(error)).not.toContain(KEY)
      expect(elsewhere.seen).toEqual([])
      expect(service.seen).toHaveLength(1)
    },
  )

  it(`stops after ${MAX_REDIRECTS} hops: a redirect loop costs ${MAX_REDIRECTS + 1} requests and a clear error`, async () => {
    let n = 0
    service.script((req, res) => json(res, 302, {}, { location: `${req.path}?${query(req)}&n=${++n}` }))
    const error = await app.failure('data.balances', balances(1))
    expect(error).toMatchObject({ kind: 'protocol', message: expect.stringMatching(/redirected .* more than 3 times/) })
    expect(service.seen).toHaveLength(MAX_REDIRECTS + 1)
    expect((await app.call('limiter.state', {})).usedToday).toBe(MAX_REDIRECTS + 1)
  })
})

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { dataUrl, http } from '../test-helpers'
import { SEED_TIMEOUT_MS, startSandbox, type StartedSandbox } from '../testing'

/** The operator surface: per-key stats and the fault switch (both only with --admin). */
const KEY = 'admin-test-key'
let sb: StartedSandbox
let tight: StartedSandbox

beforeAll(async () => {
  ;[sb, tight] = await Promise.all([
    startSandbox({ args: ['--api-key', KEY, '--admin', '--block-time', '0', '--rate', '1000', '--burst', '1000'] }),
    startSandbox({ args: ['--api-key', KEY, '--admin', '--block-time', '0', '--rate', '1', '--burst', '2'] }),
  ])
}, SEED_TIMEOUT_MS)
afterAll(async () => {
  await Promise.all([sb?.stop(), tight?.stop()])
})

const balanceUrl = () =>
  dataUrl(sb.info.base_url, 'alpha', 'balance', { api_key: KEY, address: sb.info.demo_addresses.alpha!.whale! })
const txUrl = () =>
  dataUrl(sb.info.base_url, 'alpha', 'transactions', { api_key: KEY, address: sb.info.demo_addresses.alpha!.whale! })
const rpcCall = () =>
  http(`${sb.info.rpc_url}/alpha/${KEY}`, {
    method: 'POST',
    body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
  })
const setFaults = (body: unknown) =>
  http<{ faults: Record<string, unknown> }>(`${sb.info.base_url}/__sandbox/faults`, {
    method: 'POST',
    body: JSON.stringify(body),
  })

describe('stats', () => {
  it('counts requests per key, per endpoint and per limit', async () => {
    const base = tight.info.base_url
    const address = tight.info.demo_addresses.beta!.whale!
    const replies = await Promise.all([
      http(dataUrl(base, 'beta', 'balance', { api_key: KEY, address })),
      http(dataUrl(base, 'beta', 'balances', { api_key: KEY, address })),
      http(dataUrl(base, 'beta', 'transactions', { api_key: KEY, address })),
    ])
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 429])
    await http(dataUrl(base, 'beta', 'balance', { api_key: 'not-a-key', address }))
    const stats = await http<{ keys: Record<string, unknown>; unauthorized: number }>(`${base}/__sandbox/stats`)
    expect(stats.status).toBe(200)
    expect(stats.json.keys).toEqual({
      [KEY]: {
        requests: 3,
        // Accepted, in the sandbox's billing (per request by default).
        units: 2,
        rejected_429: 1,
        by_endpoint: { balance: 2, transactions: 1, rpc: 0 },
        by_limit: { rate: 0, burst: 1, quota: 0 },
      },
    })
    // Unknown keys are counted, never stored.
    expect(stats.json.unauthorized).toBe(1)
    expect(stats.text).not.toContain('not-a-key')
  })
})

describe('fault switch', () => {
  afterEach(async () => {
    const cleared = await http<{ faults: Record<string, unknown> }>(`${sb.info.base_url}/__sandbox/faults`, {
      method: 'DELETE',
    })
    expect(cleared.json.faults).toEqual({ latency_ms: 0, error_rate: null, mode: null, times: null, match: null })
  })

  it('malformed: 200 with a body that is not JSON, only on the matching endpoint', async () => {
    const set = await setFaults({ mode: 'malformed', match: 'balance' })
    expect(set.json.faults).toMatchObject({ mode: 'malformed', match: 'balance' })
    const r = await http(balanceUrl())
    expect(r.status).toBe(200)
    expect(r.json).toBeUndefined()
    expect((await http(txUrl())).json).toMatchObject({ items: expect.any(Array) })
  })

  it('truncated: 200 with the real JSON body cut in half', async () => {
    const real = await http(txUrl())
    await setFaults({ mode: 'truncated', times: 1 })
    const cut = await http(txUrl())
    expect(cut.status).toBe(200)
    expect(cut.headers.get('content-type')).toBe('application/json')
    expect(cut.json).toBeUndefined()
    expect(cut.text.length).toBe(Math.floor(real.text.length / 2))
    expect(real.text.startsWith(cut.text)).toBe(true)
  })

  it('html: 502 with an HTML error page', async () => {
    await setFaults({ mode: 'html' })
    const r = await rpcCall()
    expect(r.status).toBe(502)
    expect(r.headers.get('content-type')).toContain('text/html')
    expect(r.text).toContain('<html>')
  })

  it('storm429: 429 with Retry-After 1 and a rate_limited body, whatever the key', async () => {
    await setFaults({ mode: 'storm429', match: 'transactions' })
    const r = await http(txUrl())
    expect(r.status).toBe(429)
    expect(r.headers.get('retry-after')).toBe('1')
    expect(r.json).toMatchObject({ error: 'rate_limited', retry_after_s: 1 })
  })

  it('status500: 500 with {"error":"internal"}', async () => {
    await setFaults({ mode: 'status500' })
    const r = await http(balanceUrl())
    expect(r.status).toBe(500)
    expect(r.json).toMatchObject({ error: 'internal' })
  })

  it('drop: the connection closes without a response', async () => {
    await setFaults({ mode: 'drop', times: 1 })
    await expect(fetch(balanceUrl())).rejects.toThrow()
    expect((await http(balanceUrl())).status).toBe(200)
  })

  it('latency: the request still succeeds after the added wait', async () => {
    await setFaults({ latency_ms: 150, times: 1 })
    const r = await http(balanceUrl())
    expect(r.status).toBe(200)
    const stats = await http<{ faults_injected: number }>(`${sb.info.base_url}/__sandbox/stats`)
    expect(stats.json.faults_injected).toBeGreaterThan(0)
  })

  it('error_rate picks an exact, evenly spread share; times ends the fault by itself', async () => {
    await setFaults({ mode: 'status500', error_rate: 0.5, match: 'rpc' })
    const statuses = []
    for (let i = 0; i < 6; i++) statuses.push((await rpcCall()).status)
    expect(statuses).toEqual([200, 500, 200, 500, 200, 500])
    await setFaults({ mode: 'html', times: 2 })
    const seq = []
    for (let i = 0; i < 3; i++) seq.push((await http(balanceUrl())).status)
    expect(seq).toEqual([502, 502, 200])
  })

  it('rejects an invalid fault description with 400 naming the field', async () => {
    const bad = await setFaults({ mode: 'explode' })
    expect(bad.status).toBe(400)
    expect(bad.json).toMatchObject({ error: 'invalid_parameter', parameter: 'mode' })
    const rate = await setFaults({ error_rate: 3 })
    expect(rate.json).toMatchObject({ parameter: 'error_rate' })
    const notJson = await http(`${sb.info.base_url}/__sandbox/faults`, { method: 'POST', body: 'nope' })
    expect(notJson.status).toBe(400)
  })
})

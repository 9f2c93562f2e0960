import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataUrl, http } from '../test-helpers'
import { SEED_TIMEOUT_MS, startSandbox, type StartedSandbox } from '../testing'

/** Keys, 401/404/400/405 bodies, and the three limits with their 429 bodies and Retry-After. */
const KEY = 'auth-test-key'
let plain: StartedSandbox
let slow: StartedSandbox
let quota: StartedSandbox

beforeAll(async () => {
  ;[plain, slow, quota] = await Promise.all([
    startSandbox({ args: ['--api-key', KEY, '--block-time', '0', '--rate', '1000', '--burst', '1000'] }),
    // Rate 1/s: a refill takes a full second, so "simultaneous" is unambiguous on a busy machine.
    startSandbox({ args: ['--api-key', KEY, '--block-time', '0', '--rate', '1', '--burst', '5'] }),
    startSandbox({ args: ['--api-key', KEY, '--block-time', '0', '--quota', '3'] }),
  ])
}, SEED_TIMEOUT_MS)
afterAll(async () => {
  await Promise.all([plain?.stop(), slow?.stop(), quota?.stop()])
})

const whale = (sb: StartedSandbox) => sb.info.demo_addresses.alpha!.whale!
const rpcBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })

describe('authentication', () => {
  it('refuses a missing, empty, unknown or misplaced data API key with 401 JSON', async () => {
    const base = `${plain.info.base_url}/api/v1/alpha/balance?address=${whale(plain)}`
    for (const query of ['', '&api_key=', '&api_key=wrong-key-123', `&apikey=${KEY}`]) {
      const r = await http(`${base}${query}`, { headers: { authorization: `Bearer ${KEY}`, 'x-api-key': KEY } })
      expect(r.status, query).toBe(401)
      expect(r.headers.get('content-type')).toBe('application/json')
      expect(r.json).toMatchObject({ error: 'unauthorized', message: expect.stringContaining('api_key') })
      expect(r.text).not.toContain('wrong-key-123')
    }
  })

  it('takes the RPC key only from the last path segment', async () => {
    const cases = [
      `${plain.info.rpc_url}/alpha`,
      `${plain.info.rpc_url}/alpha/`,
      `${plain.info.rpc_url}/alpha/nope?api_key=${KEY}`,
      `${plain.info.rpc_url}/alpha?api_key=${KEY}`,
    ]
    for (const url of cases) {
      const r = await http(url, { method: 'POST', body: rpcBody, headers: { authorization: `Bearer ${KEY}` } })
      expect(r.status, url).toBe(401)
      expect(r.json).toMatchObject({ error: 'unauthorized', message: expect.stringContaining('path segment') })
    }
    const ok = await http<{ result: string }>(`${plain.info.rpc_url}/alpha/${KEY}`, { method: 'POST', body: rpcBody })
    expect(ok.status).toBe(200)
    expect(ok.json.result).toMatch(/^0x[0-9a-f]+$/)
  })

  it('answers an unknown network or path with 404 JSON', async () => {
    const data = await http(dataUrl(plain.info.base_url, 'gamma', 'balance', { api_key: KEY, address: whale(plain) }))
    expect(data.status).toBe(404)
    expect(data.json).toEqual({ error: 'not_found', message: "unknown network 'gamma'" })
    const rpc = await http(`${plain.info.rpc_url}/gamma/${KEY}`, { method: 'POST', body: rpcBody })
    expect(rpc.status).toBe(404)
    expect(rpc.json).toMatchObject({ error: 'not_found' })
    for (const path of [
      '/',
      '/api/v1/alpha/tokens',
      '/api/v2/alpha/balance',
      '/__sandbox/stats',
      '/__sandbox/faults',
    ]) {
      const r = await http(`${plain.info.base_url}${path}?api_key=${KEY}`)
      expect(r.status, path).toBe(404)
      expect(r.json).toMatchObject({ error: 'not_found' })
    }
  })

  it('answers a bad address with 400 naming the parameter, and accepts any valid spelling', async () => {
    const good = whale(plain)
    for (const address of [
      '',
      'xyz',
      '0x123',
      `${good}00`,
      good.replace(/[a-f]/, (c) => c.toUpperCase()).replace(/[A-F]/, (c) => c.toLowerCase()),
    ]) {
      const r = await http(`${plain.info.base_url}/api/v1/alpha/transactions?api_key=${KEY}&address=${address}`)
      expect(r.status, address).toBe(400)
      expect(r.json).toMatchObject({ error: 'invalid_parameter', parameter: 'address' })
    }
    const missing = await http(`${plain.info.base_url}/api/v1/alpha/balance?api_key=${KEY}`)
    expect(missing.json).toMatchObject({ error: 'invalid_parameter', parameter: 'address' })
    for (const address of [good, good.toLowerCase(), `0x${good.slice(2).toUpperCase()}`]) {
      expect((await http(dataUrl(plain.info.base_url, 'alpha', 'balance', { api_key: KEY, address }))).status).toBe(200)
    }
  })

  it('answers wrong HTTP methods with 405', async () => {
    expect((await http(`${plain.info.rpc_url}/alpha/${KEY}`)).status).toBe(405)
    expect(
      (
        await http(dataUrl(plain.info.base_url, 'alpha', 'balance', { api_key: KEY, address: whale(plain) }), {
          method: 'POST',
          body: '{}',
        })
      ).status,
    ).toBe(405)
  })
})

describe('limits', () => {
  it('lets 5 simultaneous requests through and refuses the sixth with 429 burst and Retry-After', async () => {
    const url = dataUrl(slow.info.base_url, 'alpha', 'balance', { api_key: KEY, address: whale(slow) })
    const replies = await Promise.all(Array.from({ length: 6 }, () => http(url)))
    const statuses = replies.map((r) => r.status).sort()
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
    const refused = replies.find((r) => r.status === 429)!
    expect(refused.headers.get('content-type')).toBe('application/json')
    expect(refused.headers.get('retry-after')).toBe('1')
    expect(refused.json).toMatchObject({
      error: 'rate_limited',
      limit: 'burst',
      retry_after_s: 1,
      message: expect.any(String),
    })
    // The RPC endpoint shares the key's bucket and answers with the HTTP status too.
    const rpc = await http(`${slow.info.rpc_url}/beta/${KEY}`, { method: 'POST', body: rpcBody })
    expect(rpc.status).toBe(429)
    expect(Number(rpc.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(rpc.json).toMatchObject({ error: 'rate_limited' })
  })

  it('enforces the daily quota across endpoints, counting a batch as one request', async () => {
    const batch = JSON.stringify(
      Array.from({ length: 5 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId', params: [] })),
    )
    expect(
      (await http(dataUrl(quota.info.base_url, 'alpha', 'balance', { api_key: KEY, address: whale(quota) }))).status,
    ).toBe(200)
    const batched = await http<unknown[]>(`${quota.info.rpc_url}/alpha/${KEY}`, { method: 'POST', body: batch })
    expect(batched.status).toBe(200)
    expect(batched.json).toHaveLength(5)
    expect(
      (await http(dataUrl(quota.info.base_url, 'beta', 'transactions', { api_key: KEY, address: whale(quota) })))
        .status,
    ).toBe(200)
    const refused = await http(
      dataUrl(quota.info.base_url, 'alpha', 'transactions', { api_key: KEY, address: whale(quota) }),
    )
    expect(refused.status).toBe(429)
    const now = new Date()
    const untilMidnight = Math.ceil(
      (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000,
    )
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(Math.abs(retryAfter - untilMidnight)).toBeLessThanOrEqual(5)
    expect(refused.json).toMatchObject({ error: 'rate_limited', limit: 'quota', retry_after_s: retryAfter })
    const rpc = await http(`${quota.info.rpc_url}/alpha/${KEY}`, { method: 'POST', body: rpcBody })
    expect(rpc.status).toBe(429)
    expect(rpc.json).toMatchObject({ limit: 'quota' })
  })
})

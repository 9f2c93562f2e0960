import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { politeFetch, retryAfterMs } from './polite-fetch'
import { admin } from './sandbox-harness'

/** A real HTTP server answering each request from `replies` in turn (the last one repeated). */
function serve(replies: { status: number; headers?: Record<string, string> }[]): Promise<Server> {
  let n = 0
  const server = createServer((_req, res) => {
    const reply = replies[Math.min(n++, replies.length - 1)]!
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
    res.end(reply.status === 200 ? '{"jsonrpc":"2.0","id":1,"result":"0x10"}' : '{"error":"rate_limited"}')
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

describe('politeFetch: the harness meets the sandbox rate limit and goes on', () => {
  let server: Server | null = null
  let waits: number[]
  const sleep = async (ms: number): Promise<void> => void waits.push(ms)
  const url = (): string => `http://127.0.0.1:${(server!.address() as AddressInfo).port}/rpc/alpha/secret-key`

  beforeEach(() => {
    waits = []
  })
  afterEach(async () => {
    const s = server
    server = null
    if (!s) return
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  })

  it('waits as each 429 asks (Retry-After), then answers', async () => {
    server = await serve([
      { status: 429, headers: { 'retry-after': '2' } },
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 200 },
    ])
    const r = await politeFetch(url(), { method: 'POST', body: '{}' }, { what: 'eth_blockNumber on alpha', sleep })
    expect(r.status).toBe(200)
    expect(await r.json()).toMatchObject({ result: '0x10' })
    expect(waits).toEqual([2000, 1000])
  })

  it("the harness's head (sandbox-harness.ts) meets a 429 and goes on", async () => {
    server = await serve([{ status: 429, headers: { 'retry-after': '0' } }, { status: 200 }])
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const info = { base_url: base, rpc_url: `${base}/rpc`, api_key: 'k', networks: ['alpha'], demo_addresses: {} }
    expect(await admin(info).head('alpha')).toBe(16)
  })

  it('gives up after its attempts, naming the call and not the URL (it holds the key)', async () => {
    server = await serve([{ status: 429 }])
    const error = await politeFetch(url(), {}, { what: 'eth_blockNumber on alpha', attempts: 3, sleep }).catch(
      (e: unknown) => e as Error,
    )
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toBe('eth_blockNumber on alpha: refused for rate (HTTP 429) 3 times in a row')
    expect((error as Error).message).not.toContain('secret-key')
    expect(waits).toEqual([1000, 1000])
  })

  it('does not wait out a quota: a Retry-After longer than a minute is given up at once', async () => {
    server = await serve([{ status: 429, headers: { 'retry-after': '3600' } }])
    await expect(politeFetch(url(), {}, { what: 'eth_blockNumber on alpha', sleep })).rejects.toThrow(
      'eth_blockNumber on alpha: HTTP 429 asking to wait 3600 s; not waiting that long',
    )
    expect(waits).toEqual([])
  })

  it('reads Retry-After as seconds or an HTTP date; nothing readable is 1 s', () => {
    const now = Date.parse('2026-11-27T10:00:00Z')
    expect(retryAfterMs('3', now)).toBe(3000)
    expect(retryAfterMs('Fri, 27 Nov 2026 10:00:05 GMT', now)).toBe(5000)
    expect(retryAfterMs('Fri, 27 Nov 2026 09:00:00 GMT', now)).toBe(0)
    expect(retryAfterMs(null, now)).toBe(1000)
    expect(retryAfterMs('soon', now)).toBe(1000)
  })
})

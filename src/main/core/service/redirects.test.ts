import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../util/app-error'
import { Limiter } from '../limiter/limiter'
import { MemoryQuotaLedger } from '../limiter/quota-store'
import { json, startScriptedServer } from '../testing/scripted-server'
import { serviceProfile } from '../testing/service-fixtures'
import { nextHop, type Hop } from './redirects'
import { ServiceClient } from './service-client'

const KEY = 'sk_live_HOPKEY0123456789abcdefghijklmn'
const same = (s: string): string => s

describe('nextHop', () => {
  const from: Hop = {
    url: `https://svc.example/api/v1/alpha/balance?address=0xaa&api_key=${KEY}`,
    init: { method: 'GET', headers: { accept: 'application/json' } },
  }
  const origin = 'https://svc.example'

  it('resolves a relative Location against the current request, keeping the method', () => {
    expect(
      nextHop(from, { status: 301, location: '/api/v1/alpha/balances?x=1' }, { origin, what: 'w', redact: same }),
    ).toEqual({
      url: 'https://svc.example/api/v1/alpha/balances?x=1',
      init: from.init,
    })
  })

  it('is null for an answer that is not a redirect, or a redirect without a Location', () => {
    expect(nextHop(from, { status: 200, location: '/x' }, { origin, what: 'w', redact: same })).toBeNull()
    expect(nextHop(from, { status: 304, location: '/x' }, { origin, what: 'w', redact: same })).toBeNull()
    expect(nextHop(from, { status: 302, location: null }, { origin, what: 'w', redact: same })).toBeNull()
  })

  it.each([
    ['plain http to another computer', 'http://203.0.113.7/balances', /plain http:\/\//],
    ['https to the same host on another port', 'https://svc.example:8443/balances', /another address/],
    ['another host', 'https://evil.example/balances', /another address/],
    ['a scheme that is not the web', 'file:///etc/passwd', /plain http:\/\/ to another computer or not a web address/],
  ])('refuses %s, naming the origin and never the key', (_what, location, message) => {
    const refused = (() => {
      try {
        return nextHop(
          from,
          { status: 302, location: `${location}?api_key=${KEY}` },
          { origin, what: 'w', redact: same },
        )
      } catch (e) {
        return e
      }
    })()
    expect(refused).toBeInstanceOf(AppError)
    expect((refused as AppError).kind).toBe('protocol')
    expect((refused as AppError).message).toMatch(message)
    expect((refused as AppError).message).not.toContain(KEY)
  })

  it('a 303, or a 301/302 of a POST, asks for a GET without the body (as fetch would); 307/308 repeat the POST', () => {
    const post: Hop = {
      url: `https://svc.example/rpc/alpha/${KEY}`,
      init: { method: 'POST', headers: { 'content-type': 'application/json', accept: 'x' }, body: '{"id":1}' },
    }
    for (const status of [301, 302, 303]) {
      const next = nextHop(post, { status, location: '/v2' }, { origin, what: 'w', redact: same })!
      expect(next.init.method).toBe('GET')
      expect(next.init.body).toBeUndefined()
      expect(new Headers(next.init.headers).has('content-type')).toBe(false)
      expect(new Headers(next.init.headers).get('accept')).toBe('x')
    }
    for (const status of [307, 308])
      expect(nextHop(post, { status, location: '/v2' }, { origin, what: 'w', redact: same })!.init).toBe(post.init)
  })
})

describe('the service client and redirects', () => {
  let server: Awaited<ReturnType<typeof startScriptedServer>>
  beforeAll(async () => {
    server = await startScriptedServer()
  })
  afterAll(() => server.close())

  function client(quotaPerDay: number) {
    const sent: string[] = []
    const profile = serviceProfile(server.url)
    const limiter = new Limiter({
      profileId: 'p',
      limits: { ratePerSecond: 1000, burst: 10, quotaPerDay },
      ledger: new MemoryQuotaLedger(),
      reserveFraction: 0,
    })
    const c = new ServiceClient({
      profile: () => profile,
      getKey: async () => KEY,
      limiter,
      spelling: { get: () => 'balances', set: () => {} },
      redact: (s) => s.split(KEY).join('[key]'),
      timeoutMs: 1000,
      maxAttempts: 1,
      fetch: (input, init) => {
        sent.push(String(input))
        return globalThis.fetch(input, init)
      },
    })
    return { c, sent, limiter }
  }

  it('a redirect to plain http on another computer is refused on that hop: no request is made there', async () => {
    server.seen.length = 0
    server.script((req, res) =>
      json(res, 302, {}, { location: `http://203.0.113.7${req.path}?${req.query.toString()}` }),
    )
    const { c, sent, limiter } = client(100)
    const error = await c.data.balances('alpha', '0x' + 'aa'.repeat(20), { priority: 'user' }).catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'protocol', message: expect.stringMatching(/plain http:\/\//) })
    expect((error as Error).message).not.toContain(KEY)
    expect(sent).toHaveLength(1)
    expect(sent.every((u) => u.startsWith(server.url))).toBe(true)
    expect(server.seen).toHaveLength(1)
    limiter.dispose()
  })

  it('a hop the daily quota does not allow is not sent: the quota refusal is told as the limiter words it', async () => {
    server.seen.length = 0
    server.script((req, res) =>
      req.path.endsWith('/moved')
        ? json(res, 200, { items: [], next_page_params: null })
        : json(res, 301, {}, { location: `${req.path}/moved?${req.query.toString()}` }),
    )
    const { c, sent, limiter } = client(1)
    const error = await c.data.balances('alpha', '0x' + 'aa'.repeat(20), { priority: 'user' }).catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'quota-exhausted', message: expect.stringMatching(/^Today's quota of 1 /) })
    expect(sent).toHaveLength(1)
    expect(server.seen).toHaveLength(1)
    expect(limiter.state().usedToday).toBe(1)
    limiter.dispose()
  })
})

import type { ServerResponse } from 'node:http'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Priority } from '@shared/bridge/contract'
import { json, startScriptedServer, type Seen } from '../testing/scripted-server'
import { rpcClientFixture } from '../testing/rpc-client-fixture'
import { ConnectionState } from './connection-state'

/**
 * The connection state and its circuit breaker against a real HTTP server on loopback that
 * answers, hangs, refuses and answers again, on fake time (the sockets are real, the clock is
 * not: a 15 s deadline passes when the test says so).
 */
let server: Awaited<ReturnType<typeof startScriptedServer>>
/** Requests the server holds unanswered (a frozen service), answered on "recovery". */
let held: { req: Seen; res: ServerResponse; at: number }[] = []

const answer = (req: Seen, res: ServerResponse): void => {
  const { id } = JSON.parse(req.body) as { id: number }
  json(res, 200, { jsonrpc: '2.0', id, result: '0x3ee' })
}
const hang = (req: Seen, res: ServerResponse): void => void held.push({ req, res, at: Date.now() })

/** Lets real I/O (the sockets) run between fake-time steps. */
async function io(rounds = 30): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r))
}

/** Waits (in real I/O turns, not fake time) until the server has seen `n` requests. */
async function seen(n: number): Promise<void> {
  for (let i = 0; i < 2000 && server.seen.length < n; i++) await io(1)
  expect(server.seen.length).toBe(n)
}

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: Date.UTC(2030, 0, 1, 7, 31) })
  held = []
  server = await startScriptedServer()
})

afterEach(async () => {
  vi.useRealTimers()
  await server.close()
})

function setup(connection = new ConnectionState()) {
  const { client, limiter } = rpcClientFixture(server.url, {
    client: { connection, timeoutMs: 15_000, backoffMs: 400 },
  })
  const call = (priority: Priority = 'user') =>
    client.rpc('alpha', { method: 'eth_blockNumber', params: [] }, { priority })
  const alpha = () => connection.endpoints().find((e) => e.network === 'alpha' && e.endpoint === 'rpc')
  return { connection, client, limiter, call, alpha }
}

const iso = (ms: number): string => new Date(ms).toISOString()

describe('connection state', () => {
  it('follows what real calls did: answering, not answering (a timeout, not retried), refused, answering again', async () => {
    const published: string[] = []
    const { call, alpha } = setup(new ConnectionState({ onChange: () => published.push('change') }))
    server.script(answer)
    const t0 = Date.now()
    expect(await call()).toBe('0x3ee')
    expect(alpha()).toEqual({
      network: 'alpha',
      endpoint: 'rpc',
      state: 'answering',
      lastSuccessAt: iso(t0),
      since: null,
      nextRetryAt: null,
      until: null,
      reason: null,
    })

    server.script(hang)
    const hung = call().catch((e: unknown) => e)
    await seen(2)
    await vi.advanceTimersByTimeAsync(15_000)
    expect(await hung).toMatchObject({ kind: 'timeout' })
    // Sent once: a timeout is a failure of the service, not a reason to try again at once.
    await io()
    expect(server.seen).toHaveLength(2)
    expect(alpha()).toMatchObject({
      state: 'not-answering',
      lastSuccessAt: iso(t0),
      since: iso(t0 + 15_000),
      nextRetryAt: iso(t0 + 25_000),
      reason: expect.stringMatching(/did not answer/),
    })

    // While the breaker is open, a call fails at once and nothing is sent.
    await expect(call()).rejects.toMatchObject({
      kind: 'offline',
      message: expect.stringMatching(/has not answered since 07:31:15 UTC; Chainscope tries again at 07:31:25 UTC/),
      details: { retryAfterMs: 10_000 },
    })
    expect(server.seen).toHaveLength(2)

    server.script((_req, res) => json(res, 401, { error: 'unauthorized' }))
    await vi.advanceTimersByTimeAsync(10_000)
    await expect(call()).rejects.toMatchObject({ kind: 'auth' })
    expect(alpha()).toMatchObject({ state: 'refused', since: iso(t0 + 25_000), nextRetryAt: null })

    server.script((_req, res) => json(res, 403, { error: 'forbidden' }))
    await vi.advanceTimersByTimeAsync(1000)
    await expect(call()).rejects.toMatchObject({ kind: 'auth' })
    // Still refused since the first refusal.
    expect(alpha()).toMatchObject({ state: 'refused', since: iso(t0 + 25_000) })

    server.script(answer)
    await vi.advanceTimersByTimeAsync(1000)
    expect(await call()).toBe('0x3ee')
    expect(alpha()).toMatchObject({ state: 'answering', lastSuccessAt: iso(t0 + 27_000), since: null, reason: null })
    expect(published.length).toBeGreaterThanOrEqual(5)
  })

  it('says "offline by choice" and sends nothing while Work offline is on', async () => {
    let offline = false
    const { call, alpha } = setup(new ConnectionState({ workOffline: () => offline }))
    server.script(answer)
    await call()
    offline = true
    await expect(call()).rejects.toMatchObject({
      kind: 'offline-by-choice',
      message: expect.stringMatching(/Switch "Work offline" off/),
    })
    expect(server.seen).toHaveLength(1)
    expect(alpha()).toMatchObject({ state: 'offline-by-choice', nextRetryAt: null })
    offline = false
    await call()
    expect(server.seen).toHaveLength(2)
    expect(alpha()).toMatchObject({ state: 'answering' })
  })
})

describe('circuit breaker', () => {
  it('a 90 s hang costs a handful of requests; every call ends by its deadline; no burst on recovery', async () => {
    const { call, alpha, limiter } = setup()
    server.script(answer)
    await call()
    server.script(hang)
    const outcomes: Promise<string>[] = []
    // How long each call took, in fake time: none may wait past the 15 s attempt deadline.
    const waits: number[] = []
    const ended = (p: Promise<unknown>) => {
      const start = Date.now()
      return p.then(
        () => 'answered',
        (e: { kind: string }) => (waits.push(Date.now() - start), e.kind),
      )
    }
    const hangStart = Date.now()
    // Background work every second and a user's call every 5 s, for the 90 s the service hangs.
    for (let s = 0; s < 90; s++) {
      outcomes.push(ended(call('background')))
      if (s % 5 === 0) outcomes.push(ended(call('user')))
      await io()
      await vi.advanceTimersByTimeAsync(1000)
    }
    const sentDuringHang = server.seen.length - 1
    console.log(
      `requests sent during a 90 s hang: ${sentDuringHang}, at s ${held.map((h) => (h.at - hangStart) / 1000).join(', ')}`,
    )
    // Three sent before the first attempt was out 2 s (holdAfterMs), then one probe at a time:
    // at 25 s (15 s timeout + 10 s pause) and 60 s (+15 s + 20 s); the next would be at 115 s.
    expect(sentDuringHang).toBeLessThanOrEqual(5)
    expect(limiter.state().usedToday).toBe(1 + sentDuringHang)

    // The service comes back (SIGCONT): what it held is answered late; nothing else was queued.
    server.script(answer)
    for (const { req, res } of held) answer(req, res)
    await vi.advanceTimersByTimeAsync(60_000)
    await io()
    const results = await Promise.all(outcomes)
    // Every call ended: a timeout (sent) or the breaker's refusal (not sent); none waits on.
    expect(new Set(results)).toEqual(new Set(['timeout', 'offline']))
    expect(results.filter((r) => r === 'timeout').length).toBe(sentDuringHang)
    expect(Math.max(...waits)).toBeLessThanOrEqual(15_000)
    expect(server.seen.length).toBe(1 + sentDuringHang)
    expect(alpha()).toMatchObject({ state: 'not-answering', since: iso(hangStart + 15_000) })

    // The next call after the breaker's pause is the probe; once answered, calls flow one for one.
    expect(await call('background')).toBe('0x3ee')
    expect(alpha()).toMatchObject({ state: 'answering' })
    await Promise.all([call(), call(), call()])
    expect(server.seen.length).toBe(1 + sentDuringHang + 4)
  })

  it('while the breaker is open, one probe at a time', async () => {
    const { call } = setup()
    server.script(hang)
    const first = call().catch((e: unknown) => e)
    await seen(1)
    await vi.advanceTimersByTimeAsync(15_000)
    expect(await first).toMatchObject({ kind: 'timeout' })
    await vi.advanceTimersByTimeAsync(10_000)
    const probe = call().catch((e: unknown) => e)
    await seen(2)
    await expect(call()).rejects.toMatchObject({ kind: 'offline', message: /a test request is on its way/ })
    await expect(call('background')).rejects.toMatchObject({ kind: 'offline' })
    expect(server.seen).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(15_000)
    expect(await probe).toMatchObject({ kind: 'timeout' })
    // A failed probe doubles the pause: 20 s now.
    await vi.advanceTimersByTimeAsync(19_000)
    await expect(call()).rejects.toMatchObject({ kind: 'offline', details: { retryAfterMs: 1000 } })
  })

  it('an answer while other attempts are out lets the waiting ones go (a slow service is not a hang)', async () => {
    const { call } = setup()
    server.script(hang)
    const slow = call()
    await seen(1)
    await vi.advanceTimersByTimeAsync(4000)
    // The endpoint is suspect: this call waits instead of joining the hang.
    const waiting = call()
    await io()
    expect(server.seen).toHaveLength(1)
    // The slow answer arrives: the waiting call is sent and answered.
    server.script(answer)
    answer(held[0]!.req, held[0]!.res)
    expect(await slow).toBe('0x3ee')
    expect(await waiting).toBe('0x3ee')
    expect(server.seen).toHaveLength(2)
  })

  it('a failing service (5xx) is told, but not held back: the next call goes', async () => {
    const { call, alpha } = setup()
    server.script((_req, res) => json(res, 503, { error: 'unavailable' }))
    const failed = call().catch((e: unknown) => e)
    for (let i = 0; i < 5; i++) {
      await io()
      await vi.advanceTimersByTimeAsync(1000)
    }
    expect(await failed).toMatchObject({ kind: 'server' })
    // Its own retries, bounded (3 attempts).
    expect(server.seen).toHaveLength(3)
    expect(alpha()).toMatchObject({ state: 'not-answering', nextRetryAt: null, reason: expect.stringMatching(/503/) })
    server.script(answer)
    expect(await call()).toBe('0x3ee')
    expect(alpha()).toMatchObject({ state: 'answering' })
  })
})

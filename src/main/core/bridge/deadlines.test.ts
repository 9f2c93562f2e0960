import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BridgeHost } from './bridge-host'
import { Limiter } from '../limiter/limiter'
import { MemoryQuotaLedger } from '../limiter/quota-store'
import { Redactor } from '../util/logger'

/** Every wait is bounded — a bridge call, a queued request, a server's pause — and at the bridge a secret is redacted before it is cut. */
beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(Date.UTC(2030, 0, 1, 10))
})
afterEach(() => vi.useRealTimers())

describe('deadlines', () => {
  it('a bridge call whose handler never settles answers `timeout` after 30 s', async () => {
    const host = new BridgeHost({ 'key.test': () => new Promise(() => {}) })
    let answer: unknown = null
    void host.dispatch('key.test', { profileId: 'p' }).then((a) => (answer = a))
    await vi.advanceTimersByTimeAsync(29_999)
    expect(answer).toBeNull()
    await vi.advanceTimersByTimeAsync(1)
    expect(answer).toMatchObject({
      ok: false,
      error: { kind: 'timeout', message: expect.stringMatching(/key\.test got no answer within 30 s/) },
    })
  })

  it('a queued request fails with `timeout` after its deadline instead of waiting forever', async () => {
    const limiter = new Limiter({
      profileId: 'p',
      limits: { ratePerSecond: 10, burst: 1, quotaPerDay: 1000 },
      ledger: new MemoryQuotaLedger(),
    })
    const held = await limiter.acquire({ priority: 'user' })
    let outcome: unknown = null
    limiter.acquire({ priority: 'user' }).then(
      () => (outcome = 'granted'),
      (e: unknown) => (outcome = e),
    )
    await vi.advanceTimersByTimeAsync(24_999)
    expect(outcome).toBeNull()
    await vi.advanceTimersByTimeAsync(1)
    expect(outcome).toMatchObject({ kind: 'timeout' })
    held.release()
    limiter.dispose()
  })

  it('a server pause is clamped to 60 s; while it lasts longer than a request may wait, requests fail at once', async () => {
    const limiter = new Limiter({
      profileId: 'p',
      limits: { ratePerSecond: 10, burst: 5, quotaPerDay: 1000 },
      ledger: new MemoryQuotaLedger(),
    })
    limiter.pauseFor(999_999_999_000)
    expect(Date.parse(limiter.state().pausedUntil!) - Date.now()).toBe(60_000)
    await expect(limiter.acquire({ priority: 'user' })).rejects.toMatchObject({
      kind: 'rate-limited',
      details: { retryAfterMs: 60_000 },
    })
    await vi.advanceTimersByTimeAsync(40_000)
    // 20 s left: within a request's deadline, so it waits and is sent when the pause ends.
    let granted = false
    void limiter.acquire({ priority: 'user' }).then((p) => {
      granted = true
      p.release()
    })
    await vi.advanceTimersByTimeAsync(20_001)
    expect(granted).toBe(true)
    expect(limiter.state().pausedUntil).toBeUndefined()
    limiter.dispose()
  })
})

describe('redact, then cut (item 6)', () => {
  it('an unknown call name holding a key is redacted before it is cut', async () => {
    const redactor = new Redactor()
    const key = 'sk_live_0123456789abcdefghijklmnopqrstuvwxyz'
    redactor.add(key)
    const host = new BridgeHost({}, { redactor })
    const answer = await host.dispatch(`${'x'.repeat(30)}${key}`, {})
    const message = JSON.stringify(answer)
    for (let i = 0; i + 8 <= key.length; i++) expect(message).not.toContain(key.slice(i, i + 8))
  })
})

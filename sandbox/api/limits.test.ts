import { describe, expect, it } from 'vitest'
import { KeyLimiter } from './limits'

/** A hand-driven clock: the limiter's time is exact, no real time passes. */
function clock(start = Date.UTC(2026, 0, 10, 12, 0, 0)) {
  let t = start
  return { now: () => t, advance: (ms: number) => (t += ms) }
}

describe('KeyLimiter', () => {
  it('lets a burst of 5 through and refuses the sixth as "burst"', () => {
    const c = clock()
    const limiter = new KeyLimiter({ rate: 50, burst: 5, quota: 1000, now: c.now })
    for (let i = 0; i < 5; i++) expect(limiter.take()).toEqual({ ok: true })
    const sixth = limiter.take()
    expect(sixth).toMatchObject({ ok: false, limit: 'burst', retryAfterS: 1 })
  })

  it('refills at the rate: one token per 20 ms at 50/s', () => {
    const c = clock()
    const limiter = new KeyLimiter({ rate: 50, burst: 5, quota: 1000, now: c.now })
    for (let i = 0; i < 5; i++) limiter.take()
    c.advance(19)
    expect(limiter.take().ok).toBe(false)
    c.advance(1)
    expect(limiter.take().ok).toBe(true)
    expect(limiter.take().ok).toBe(false)
  })

  it('at 100 requests/s accepts the burst plus what refills in that second, and names the refusals "rate"', () => {
    const c = clock()
    const limiter = new KeyLimiter({ rate: 50, burst: 5, quota: 100_000, now: c.now })
    let accepted = 0
    const refusals = new Set<string>()
    // 100 requests per second, one every 10 ms, for one second.
    for (let i = 0; i < 100; i++) {
      const v = limiter.take()
      if (v.ok) accepted += 1
      else refusals.add(v.limit)
      c.advance(10)
    }
    // 5 in the bucket + 50/s × 0.99 s of refill (the last request comes at 990 ms).
    expect(accepted).toBe(54)
    expect(refusals).toEqual(new Set(['rate']))
  })

  it('computes Retry-After from the refill time for slow rates', () => {
    const c = clock()
    const limiter = new KeyLimiter({ rate: 0.25, burst: 1, quota: 1000, now: c.now })
    expect(limiter.take().ok).toBe(true)
    expect(limiter.take()).toMatchObject({ ok: false, retryAfterS: 4 })
    c.advance(1000)
    expect(limiter.take()).toMatchObject({ ok: false, retryAfterS: 3 })
  })

  it('counts the quota per calendar day in UTC, refusals excluded, with Retry-After until midnight', () => {
    const c = clock(Date.UTC(2026, 0, 10, 23, 59, 0))
    const limiter = new KeyLimiter({ rate: 1000, burst: 1000, quota: 3, now: c.now })
    for (let i = 0; i < 3; i++) expect(limiter.take().ok).toBe(true)
    const refused = limiter.take()
    expect(refused).toMatchObject({ ok: false, limit: 'quota', retryAfterS: 60 })
    expect(limiter.usedToday).toBe(3)
    c.advance(59_999)
    expect(limiter.take()).toMatchObject({ ok: false, limit: 'quota', retryAfterS: 1 })
    c.advance(1)
    expect(limiter.take().ok).toBe(true)
    expect(limiter.usedToday).toBe(1)
  })

  it('does not spend quota on requests refused by the bucket', () => {
    const c = clock()
    const limiter = new KeyLimiter({ rate: 1, burst: 2, quota: 10, now: c.now })
    for (let i = 0; i < 6; i++) limiter.take()
    expect(limiter.usedToday).toBe(2)
  })
})

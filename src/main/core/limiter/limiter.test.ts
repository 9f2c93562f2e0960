import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LimiterState, Priority } from '@shared/bridge/contract'
import { SPEC_LIMITS } from '@shared/domain/profile'
import { AppError } from '../util/app-error'
import { systemClock, type Clock } from '../util/clock'
import { Limiter, type LimiterOptions } from './limiter'
import { MemoryQuotaLedger, QuotaFile } from './quota-store'
import { hangingFs } from '../testing/hanging-fs'
import { DiskReports } from '../util/disk-error'

const NOON = Date.UTC(2030, 0, 1, 12, 0, 0)
let dir: string

beforeEach(() => {
  vi.useFakeTimers({ now: NOON })
  dir = mkdtempSync(join(tmpdir(), 'limiter-'))
})
afterEach(() => {
  vi.useRealTimers()
  rmSync(dir, { recursive: true, force: true })
})

function make(options: Partial<LimiterOptions> = {}): Limiter {
  return new Limiter({ profileId: 'p', limits: SPEC_LIMITS, ledger: new MemoryQuotaLedger(), ...options })
}

/** Starts `n` acquisitions that release at once; returns the fake time of each grant, in grant order. */
function grantTimes(limiter: Limiter, n: number, priority: Priority = 'user'): { times: number[]; errors: unknown[] } {
  const times: number[] = []
  const errors: unknown[] = []
  for (let i = 0; i < n; i++) {
    limiter.acquire({ priority }).then(
      (permit) => {
        times.push(Date.now() - NOON)
        permit.release()
      },
      (error: unknown) => errors.push(error),
    )
  }
  return { times, errors }
}

describe('Limiter token bucket', () => {
  it('lets exactly the burst through at once, then one request per 1/rate', async () => {
    const limiter = make()
    const { times } = grantTimes(limiter, 55)
    await vi.advanceTimersByTimeAsync(0)
    expect(times).toEqual([0, 0, 0, 0, 0])
    await vi.advanceTimersByTimeAsync(2000)
    const expected = [0, 0, 0, 0, 0, ...Array.from({ length: 50 }, (_, i) => (i + 1) * 20)]
    expect(times).toEqual(expected)
    limiter.dispose()
  })

  it('never has more than burst requests in flight, even with tokens to spare', async () => {
    const limiter = make({ limits: { ratePerSecond: 1000, burst: 3, quotaPerDay: 1000 } })
    const permits: { release(): void }[] = []
    for (let i = 0; i < 4; i++) void limiter.acquire({ priority: 'user' }).then((p) => permits.push(p))
    await vi.advanceTimersByTimeAsync(1000)
    expect(permits).toHaveLength(3)
    expect(limiter.state().inFlight).toBe(3)
    permits[0]!.release()
    permits[0]!.release() // a second release of the same permit frees nothing more
    await vi.advanceTimersByTimeAsync(0)
    expect(permits).toHaveLength(4)
    expect(limiter.state().inFlight).toBe(3)
    limiter.dispose()
  })

  it('refills to the burst after idling and no further', async () => {
    const limiter = make()
    grantTimes(limiter, 5)
    await vi.advanceTimersByTimeAsync(0)
    expect(limiter.state().tokens).toBe(0)
    await vi.advanceTimersByTimeAsync(50)
    expect(limiter.state().tokens).toBe(2.5)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(limiter.state().tokens).toBe(5)
    limiter.dispose()
  })

  it('in queue-safe mode keeps each token until its answer is back', async () => {
    const limiter = make({ queueSafe: true })
    const held: { release(): void }[] = []
    const at: number[] = []
    for (let i = 0; i < 7; i++)
      void limiter.acquire({ priority: 'user' }).then((p) => (held.push(p), at.push(Date.now() - NOON)))
    await vi.advanceTimersByTimeAsync(1000)
    // The whole burst at once when nothing is in flight, then nothing until answers return.
    expect(at).toEqual([0, 0, 0, 0, 0])
    expect(limiter.state().tokens).toBe(0)
    held[0]!.release()
    await vi.advanceTimersByTimeAsync(0)
    // No token grew while all five were out (the service may still count them): the freed
    // slot refills at the normal rate from now.
    expect(at).toEqual([0, 0, 0, 0, 0])
    await vi.advanceTimersByTimeAsync(20)
    expect(at).toEqual([0, 0, 0, 0, 0, 1020])
    held[1]!.release()
    held[2]!.release()
    await vi.advanceTimersByTimeAsync(40)
    expect(at).toHaveLength(7)
    limiter.dispose()
  })

  it('in queue-safe mode runs at the full rate, one answer time behind, when answers are quick', async () => {
    const limiter = make({ queueSafe: true })
    const at: number[] = []
    for (let i = 0; i < 55; i++) {
      void limiter.acquire({ priority: 'user' }).then((p) => {
        at.push(Date.now() - NOON)
        setTimeout(() => p.release(), 5)
      })
    }
    await vi.advanceTimersByTimeAsync(2000)
    expect(at).toEqual([0, 0, 0, 0, 0, ...Array.from({ length: 50 }, (_, i) => 5 + (i + 1) * 20)])
    limiter.dispose()
  })

  it('in queue-safe mode never lets a late-counting service see more than its bucket allows', async () => {
    // The service counts each request at a random moment while it is in flight; whatever
    // those moments, every window of counts fits burst + rate × window.
    const limiter = make({ queueSafe: true })
    const counted: number[] = []
    let seed = 7
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let i = 0; i < 200; i++) {
      void limiter.acquire({ priority: 'user' }).then((permit) => {
        const latency = Math.floor(random() * 80)
        const countAt = Date.now() - NOON + Math.floor(random() * latency)
        counted.push(countAt)
        setTimeout(() => permit.release(), latency)
      })
    }
    await vi.advanceTimersByTimeAsync(20_000)
    expect(counted).toHaveLength(200)
    counted.sort((a, b) => a - b)
    for (let i = 0; i < counted.length; i++) {
      for (let j = i; j < counted.length; j++) {
        expect(j - i + 1).toBeLessThanOrEqual(5 + (50 * (counted[j]! - counted[i]!)) / 1000 + 1e-9)
      }
    }
    limiter.dispose()
  })

  it('sends nothing during a server-ordered pause (Retry-After)', async () => {
    const limiter = make()
    limiter.pauseFor(1000)
    const { times } = grantTimes(limiter, 6)
    await vi.advanceTimersByTimeAsync(999)
    expect(times).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    // The bucket refilled during the pause, as the service's does.
    expect(times).toEqual([1000, 1000, 1000, 1000, 1000])
    await vi.advanceTimersByTimeAsync(20)
    expect(times).toHaveLength(6)
    limiter.dispose()
  })

  it('applies new limits at once', async () => {
    const limiter = make()
    limiter.setLimits({ ratePerSecond: 10, burst: 2, quotaPerDay: 1000 })
    const { times } = grantTimes(limiter, 4)
    await vi.advanceTimersByTimeAsync(1000)
    expect(times).toEqual([0, 0, 100, 200])
    limiter.dispose()
  })
})

describe('Limiter priorities and cancellation', () => {
  it('serves user before prefetch before background, FIFO within a priority', async () => {
    const limiter = make({ limits: { ratePerSecond: 10, burst: 1, quotaPerDay: 1000 } })
    const order: string[] = []
    const add = (name: string, priority: Priority): void => {
      void limiter.acquire({ priority }).then((p) => {
        order.push(name)
        p.release()
      })
    }
    add('first', 'background') // takes the one token at once
    add('bg1', 'background')
    add('pre1', 'prefetch')
    add('bg2', 'background')
    add('user1', 'user')
    add('pre2', 'prefetch')
    add('user2', 'user')
    await vi.advanceTimersByTimeAsync(0)
    expect(limiter.state().queued).toEqual({ user: 2, prefetch: 2, background: 2 })
    await vi.advanceTimersByTimeAsync(1000)
    expect(order).toEqual(['first', 'user1', 'user2', 'pre1', 'pre2', 'bg1', 'bg2'])
    limiter.dispose()
  })

  it('re-reads a queued priority, so joining user work lifts a prefetch', async () => {
    const limiter = make({ limits: { ratePerSecond: 10, burst: 1, quotaPerDay: 1000 } })
    const order: string[] = []
    let lifted: Priority = 'prefetch'
    void limiter.acquire({ priority: 'user' }).then((p) => p.release())
    void limiter.acquire({ priority: 'user' }).then((p) => (order.push('user'), p.release()))
    void limiter.acquire({ priority: () => lifted }).then((p) => (order.push('lifted'), p.release()))
    await vi.advanceTimersByTimeAsync(0)
    lifted = 'user'
    await vi.advanceTimersByTimeAsync(1000)
    expect(order).toEqual(['user', 'lifted'])
    void limiter.acquire({ priority: 'user' }).then((p) => p.release()) // takes the refilled token
    void limiter.acquire({ priority: 'background' }).then((p) => (order.push('bg'), p.release()))
    void limiter.acquire({ priority: () => lifted }).then((p) => (order.push('lifted2'), p.release()))
    await vi.advanceTimersByTimeAsync(1000)
    expect(order).toEqual(['user', 'lifted', 'lifted2', 'bg'])
    limiter.dispose()
  })

  it('drops cancelled queued work without spending a token or quota', async () => {
    const limiter = make({ limits: { ratePerSecond: 10, burst: 1, quotaPerDay: 1000 } })
    void limiter.acquire({ priority: 'user' }).then((p) => p.release())
    const controller = new AbortController()
    const cancelled = limiter.acquire({ priority: 'user', signal: controller.signal })
    const kept = limiter.acquire({ priority: 'user' })
    await vi.advanceTimersByTimeAsync(50)
    controller.abort(new AppError('cancelled', 'left the view'))
    await expect(cancelled).rejects.toMatchObject({ kind: 'cancelled' })
    await vi.advanceTimersByTimeAsync(50)
    ;(await kept).release()
    expect(Date.now() - NOON).toBe(100)
    expect(limiter.state().usedToday).toBe(2)
    expect(limiter.state().queued.user).toBe(0)
    limiter.dispose()
  })

  it('rejects an already aborted request at once', async () => {
    const limiter = make()
    const controller = new AbortController()
    controller.abort(new AppError('cancelled', 'gone'))
    await expect(limiter.acquire({ priority: 'user', signal: controller.signal })).rejects.toMatchObject({
      kind: 'cancelled',
    })
    expect(limiter.state().usedToday).toBe(0)
    limiter.dispose()
  })
})

describe('Limiter daily quota', () => {
  it('refuses the request after the quota with the time to the UTC reset', async () => {
    const limiter = make({ limits: { ratePerSecond: 50, burst: 5, quotaPerDay: 3 } })
    const { times, errors } = grantTimes(limiter, 4)
    await vi.advanceTimersByTimeAsync(100)
    expect(times).toHaveLength(3)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toBeInstanceOf(AppError)
    expect(errors[0]).toMatchObject({ kind: 'quota-exhausted', details: { retryAfterMs: 12 * 3600_000 } })
    expect(limiter.state()).toMatchObject({ usedToday: 3, leftToday: 0, resetsAt: '2030-01-02T00:00:00.000Z' })
    limiter.dispose()
  })

  it('stops background work before the last 20% but still serves the user', async () => {
    const limiter = make({ limits: { ratePerSecond: 50, burst: 5, quotaPerDay: 10 } })
    expect(limiter.reserve).toBe(2)
    const bg = grantTimes(limiter, 10, 'background')
    await vi.advanceTimersByTimeAsync(1000)
    expect(bg.times).toHaveLength(8)
    expect(bg.errors).toHaveLength(2)
    expect(bg.errors[0]).toMatchObject({ kind: 'quota-exhausted' })
    expect(String((bg.errors[0] as Error).message)).toMatch(/Background refresh is paused/)
    const user = grantTimes(limiter, 3, 'user')
    await vi.advanceTimersByTimeAsync(1000)
    expect(user.times).toHaveLength(2)
    expect(user.errors).toHaveLength(1)
    expect(limiter.state().throttled).toBe(true)
    limiter.dispose()
  })

  it('persists the count across a clean restart exactly', async () => {
    const file = join(dir, 'quota.json')
    const ledger = new QuotaFile(file)
    const first = make({ ledger })
    first.useKey('abc123')
    grantTimes(first, 7)
    // Each grant waits for its count on the real disk (waitFor advances the fake clock).
    await vi.waitFor(() => expect(first.state().usedToday).toBe(7), { timeout: 20_000 })
    first.dispose()
    await ledger.settled()
    const second = make({ ledger: new QuotaFile(file) })
    second.useKey('abc123')
    expect(second.state().usedToday).toBe(7)
    second.dispose()
  })

  it('finds no count for a profile whose id names a property of every object', async () => {
    const file = join(dir, 'quota.json')
    const ledger = new QuotaFile(file)
    expect(ledger.load('constructor')).toBeNull()
    ledger.remove('constructor')
    await ledger.save('constructor', { day: '2030-01-01', used: 3, keyTag: 'abc123' })
    expect(new QuotaFile(file).load('constructor')).toEqual({ day: '2030-01-01', used: 3, keyTag: 'abc123' })
  })

  it('after a crash restores at least the true count and at most one step more', async () => {
    const file = join(dir, 'quota.json')
    const first = make({ ledger: new QuotaFile(file), reserveStep: 10 })
    first.useKey('abc123')
    grantTimes(first, 13)
    await vi.waitFor(() => expect(first.state().usedToday).toBe(13), { timeout: 20_000 })
    // No dispose: the process died. Only what reached the disk counts.
    const second = make({ ledger: new QuotaFile(file) })
    second.useKey('abc123')
    const used = second.state().usedToday
    expect(used).toBeGreaterThanOrEqual(13)
    expect(used).toBeLessThanOrEqual(13 + 9)
    second.dispose()
  })

  it('a disk that hangs holds the requests, never the event loop, and is given up and told at its deadline', async () => {
    const disk = hangingFs()
    const told: string[] = []
    const ledger = new QuotaFile(join(dir, 'quota.json'), {
      fs: disk.fs,
      deadlineMs: 20_000,
      disk: new DiskReports((m) => told.push(m)),
    })
    const limiter = make({ ledger, reserveStep: 10 })
    limiter.useKey('abc123')
    disk.state.hang = true
    const { times } = grantTimes(limiter, 3)
    await disk.reached()
    // The event loop runs on (a timer fires) while no request goes before its count is on disk.
    let ticked = false
    setTimeout(() => (ticked = true), 1000)
    await vi.advanceTimersByTimeAsync(19_000)
    expect(ticked).toBe(true)
    expect(times).toEqual([])
    // At the deadline the write is given up (never renamed into place) and told; the count goes
    // on in memory and the requests go.
    await vi.advanceTimersByTimeAsync(1_000)
    await vi.waitFor(() => expect(times).toHaveLength(3), { timeout: 20_000 })
    expect(told).toEqual([expect.stringMatching(/daily request count: the disk did not answer in 20 s/)])
    expect(new QuotaFile(join(dir, 'quota.json')).load('key:abc123')).toBeNull()
    disk.release()
    limiter.dispose()
    await ledger.settled()
    expect(new QuotaFile(join(dir, 'quota.json')).load('key:abc123')).toMatchObject({ used: 3 })
  })

  it('waits out a pause longer than a Node timer can hold without spinning, then grants', async () => {
    let timers = 0
    const clock: Clock = { ...systemClock, setTimeout: (fn, ms) => (timers++, systemClock.setTimeout(fn, ms)) }
    // Pauses are clamped to 60 s by default; unclamped, the timer must still not spin.
    const limiter = make({ clock, maxPauseMs: Infinity, queueDeadlineMs: Infinity })
    // A service's Retry-After of 30 days: beyond 2^31-1 ms Node would fire the timer after 1 ms.
    limiter.pauseFor(30 * 24 * 3600_000)
    let granted = false
    void limiter.acquire({ priority: 'user' }).then((permit) => {
      granted = true
      permit.release()
    })
    const before = timers
    await vi.advanceTimersByTimeAsync(1000)
    expect(timers - before).toBeLessThanOrEqual(2)
    expect(granted).toBe(false)
    await vi.advanceTimersByTimeAsync(30 * 24 * 3600_000)
    expect(granted).toBe(true)
    limiter.dispose()
  })

  it('writes to disk once per step, not once per request', async () => {
    const ledger = new MemoryQuotaLedger()
    const limiter = make({ ledger, reserveStep: 10 })
    grantTimes(limiter, 25)
    await vi.advanceTimersByTimeAsync(1000)
    expect(ledger.writes).toBe(3)
    expect(ledger.records.get('p')?.used).toBe(30)
    limiter.dispose()
    expect(ledger.records.get('p')?.used).toBe(25)
  })

  it('starts a fresh count at 00:00 UTC', async () => {
    vi.setSystemTime(Date.UTC(2030, 0, 1, 23, 59, 59))
    const ledger = new MemoryQuotaLedger()
    const events: LimiterState[] = []
    const limiter = make({ ledger, onState: (s) => events.push(s) })
    grantTimes(limiter, 3)
    await vi.advanceTimersByTimeAsync(100)
    expect(limiter.state().usedToday).toBe(3)
    await vi.advanceTimersByTimeAsync(1000)
    expect(limiter.state()).toMatchObject({ usedToday: 0, resetsAt: '2030-01-03T00:00:00.000Z' })
    // The meter hears about the reset without any request.
    expect(events.at(-1)).toMatchObject({ usedToday: 0 })
    limiter.dispose()
  })

  it("does not carry yesterday's count into a restart today", () => {
    const ledger = new MemoryQuotaLedger()
    ledger.save('p', { day: '2029-12-31', used: 900, keyTag: 'k' })
    const limiter = make({ ledger })
    expect(limiter.state().usedToday).toBe(0)
    limiter.dispose()
  })

  it('starts a fresh count for a different key', () => {
    const ledger = new MemoryQuotaLedger()
    ledger.save('p', { day: '2030-01-01', used: 500, keyTag: 'old' })
    const limiter = make({ ledger })
    limiter.useKey('old')
    expect(limiter.state().usedToday).toBe(500)
    limiter.useKey('new')
    expect(limiter.state().usedToday).toBe(0)
    expect(ledger.records.get('p')).toMatchObject({ used: 0, keyTag: 'new' })
    limiter.dispose()
  })

  it('believes the service when it says the quota is gone', async () => {
    const limiter = make()
    limiter.markQuotaExhausted()
    await expect(limiter.acquire({ priority: 'user' })).rejects.toMatchObject({ kind: 'quota-exhausted' })
    expect(limiter.state().leftToday).toBe(0)
    limiter.dispose()
  })
})

describe('Limiter state events', () => {
  it('publishes at most one state per interval and always the latest', async () => {
    const events: LimiterState[] = []
    const limiter = make({ onState: (s) => events.push(s), stateIntervalMs: 250 })
    grantTimes(limiter, 20)
    await vi.advanceTimersByTimeAsync(1000)
    expect(events.length).toBeGreaterThanOrEqual(2)
    expect(events.length).toBeLessThanOrEqual(5)
    expect(events.at(-1)).toMatchObject({ usedToday: 20, inFlight: 0, queued: { user: 0, prefetch: 0, background: 0 } })
    limiter.dispose()
  })

  it('rejects queued work on dispose', async () => {
    const limiter = make({ limits: { ratePerSecond: 1, burst: 1, quotaPerDay: 10 } })
    void limiter.acquire({ priority: 'user' })
    const queued = limiter.acquire({ priority: 'user' })
    limiter.dispose()
    await expect(queued).rejects.toMatchObject({ kind: 'cancelled' })
  })
})

describe('Limiter costs in the service unit', () => {
  it('takes a batch billed per call as that many units from the bucket and the day', async () => {
    const limiter = make({ limits: { ratePerSecond: 50, burst: 5, quotaPerDay: 1000 } })
    const permit = await limiter.acquire({ priority: 'user', cost: 3 })
    expect(limiter.state().usedToday).toBe(3)
    expect(limiter.state().tokens).toBe(2)
    permit.release()
    limiter.dispose()
  })

  it('lets a request dearer than the burst go once the bucket is full, then the bucket owes what it lent', async () => {
    const limiter = make({ limits: { ratePerSecond: 10, burst: 5, quotaPerDay: 1000 } })
    const first = grantTimes(limiter, 1)
    await vi.advanceTimersByTimeAsync(0)
    expect(first.times).toEqual([0])
    // The bucket holds 4 now: the 51-unit batch waits for a full bucket (100 ms at 10/s).
    const granted: number[] = []
    void limiter.acquire({ priority: 'user', cost: 51 }).then((p) => {
      granted.push(Date.now() - NOON)
      p.release()
    })
    await vi.advanceTimersByTimeAsync(99)
    expect(granted).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(granted).toEqual([100])
    expect(limiter.state().usedToday).toBe(52)
    // 46 units owed: the next single request waits until the rate has paid them back (4.7 s).
    const next = grantTimes(limiter, 1)
    await vi.advanceTimersByTimeAsync(4600)
    expect(next.times).toEqual([])
    await vi.advanceTimersByTimeAsync(200)
    expect(next.times).toEqual([4800])
    limiter.dispose()
  })

  it('refuses a request dearer than what is left today, but still serves a cheaper one', async () => {
    const limiter = make({ limits: { ratePerSecond: 1000, burst: 100, quotaPerDay: 10 }, reserveFraction: 0 })
    await limiter.acquire({ priority: 'user', cost: 8 }).then((p) => p.release())
    const refused = limiter.acquire({ priority: 'user', cost: 3 })
    await expect(refused).rejects.toMatchObject({ kind: 'quota-exhausted' })
    await expect(refused).rejects.toThrow(/costs 3 requests and only 2/)
    const permit = await limiter.acquire({ priority: 'user', cost: 2 })
    permit.release()
    expect(limiter.state().usedToday).toBe(10)
    limiter.dispose()
  })

  it('keeps the reserve from background work that would cut into it, in units', async () => {
    const limiter = make({ limits: { ratePerSecond: 1000, burst: 100, quotaPerDay: 100 }, billing: () => 'call' })
    // Reserve 20: 79 used leaves 21; a background batch of 3 calls would leave 18.
    await limiter.acquire({ priority: 'user', cost: 79 }).then((p) => p.release())
    await expect(limiter.acquire({ priority: 'background', cost: 3 })).rejects.toThrow(
      /21 of today's 100 calls are left/,
    )
    await limiter.acquire({ priority: 'background', cost: 1 }).then((p) => p.release())
    expect(limiter.state()).toMatchObject({ usedToday: 80, billing: 'call' })
    limiter.dispose()
  })

  it('in queue-safe mode keeps a dear request out of the bucket until its answer is back', async () => {
    const limiter = make({ limits: { ratePerSecond: 1000, burst: 5, quotaPerDay: 1000 }, queueSafe: true })
    const big = await limiter.acquire({ priority: 'user', cost: 5 })
    const small = grantTimes(limiter, 1)
    await vi.advanceTimersByTimeAsync(1000)
    expect(small.times).toEqual([])
    big.release()
    await vi.advanceTimersByTimeAsync(1)
    expect(small.times).toHaveLength(1)
    limiter.dispose()
  })
})

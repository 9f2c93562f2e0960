import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DailyQuota } from './daily-quota'
import { MemoryQuotaLedger } from './quota-store'

const NOON = Date.UTC(2030, 0, 1, 12, 0, 0)
beforeEach(() => vi.useFakeTimers({ now: NOON }))
afterEach(() => vi.useRealTimers())

describe('DailyQuota', () => {
  it('writes ahead by the step, so a crash can only over-count, and flush writes the exact count', () => {
    const ledger = new MemoryQuotaLedger()
    const quota = new DailyQuota({ id: 'p', ledger, reserveStep: 10 })
    quota.useKey('k1')
    for (let i = 0; i < 13; i++) quota.take(1000)
    expect(quota.used()).toBe(13)
    const onDisk = ledger.load('p')!.used
    expect(onDisk).toBeGreaterThanOrEqual(13)
    expect(onDisk).toBeLessThanOrEqual(13 + 9)
    // A restart after a crash reads what reached the ledger.
    expect(new DailyQuota({ id: 'p', ledger }).used()).toBe(onDisk)
    quota.flush()
    expect(new DailyQuota({ id: 'p', ledger }).used()).toBe(13)
  })

  it('never writes ahead past the quota', () => {
    const ledger = new MemoryQuotaLedger()
    const quota = new DailyQuota({ id: 'p', ledger, reserveStep: 10 })
    for (let i = 0; i < 3; i++) quota.take(5)
    expect(ledger.load('p')!.used).toBeLessThanOrEqual(5)
  })

  it('starts again at 00:00 UTC and for a different key, and believes the service', () => {
    const ledger = new MemoryQuotaLedger()
    const quota = new DailyQuota({ id: 'p', ledger })
    quota.useKey('k1')
    quota.take(1000)
    quota.exhaust(1000)
    expect(quota.used()).toBe(1000)
    vi.setSystemTime(Date.UTC(2030, 0, 2, 0, 0, 0))
    expect(quota.used()).toBe(0)
    quota.take(1000)
    expect(quota.useKey('k1')).toBe(false)
    expect(quota.used()).toBe(1)
    expect(quota.useKey('k2')).toBe(true)
    expect(quota.used()).toBe(0)
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DailyQuota } from './daily-quota'
import { MemoryQuotaLedger, QuotaFile, type QuotaRecord } from './quota-store'

const NOON = Date.UTC(2030, 0, 1, 12, 0, 0)
let dir: string
beforeEach(() => {
  vi.useFakeTimers({ now: NOON })
  dir = mkdtempSync(join(tmpdir(), 'daily-quota-'))
})
afterEach(() => {
  vi.useRealTimers()
  rmSync(dir, { recursive: true, force: true })
})

/** What a new process finds: the records that reached the ledger, nothing held in memory. */
function restarted(ledger: MemoryQuotaLedger): MemoryQuotaLedger {
  const fresh = new MemoryQuotaLedger()
  for (const [id, record] of ledger.records) fresh.records.set(id, { ...record })
  return fresh
}

function spend(quota: DailyQuota, n: number): void {
  for (let i = 0; i < n; i++) quota.take(1000)
}

describe('DailyQuota', () => {
  it('writes ahead by the step, so a crash can only over-count, and flush writes the exact count', () => {
    const ledger = new MemoryQuotaLedger()
    const quota = new DailyQuota({ id: 'p', ledger, reserveStep: 10 })
    quota.useKey('k1')
    spend(quota, 13)
    expect(quota.used()).toBe(13)
    // A restart after a crash reads what reached the ledger.
    const onDisk = new DailyQuota({ id: 'p', ledger: restarted(ledger) }).used()
    expect(onDisk).toBeGreaterThanOrEqual(13)
    expect(onDisk).toBeLessThanOrEqual(13 + 9)
    quota.flush()
    expect(new DailyQuota({ id: 'p', ledger: restarted(ledger) }).used()).toBe(13)
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

  it('K1 → K2 → K1 gives K1 its own count back, not a second quota, also after a restart', () => {
    const ledger = new MemoryQuotaLedger()
    const quota = new DailyQuota({ id: 'p', ledger })
    quota.useKey('k1')
    spend(quota, 7)
    quota.useKey('k2')
    spend(quota, 2)
    expect(quota.used()).toBe(2)
    expect(quota.useKey('k1')).toBe(true)
    expect(quota.used()).toBe(7)
    spend(quota, 1)
    quota.flush()
    const again = new DailyQuota({ id: 'p', ledger: restarted(ledger) })
    expect(again.used()).toBe(8)
    again.useKey('k2')
    expect(again.used()).toBe(2)
    // A new day: every key starts from zero.
    vi.setSystemTime(Date.UTC(2030, 0, 2, 0, 0, 1))
    again.useKey('k1')
    expect(again.used()).toBe(0)
  })

  it('two profiles with one key share one count; a profile with another key has its own', () => {
    const ledger = new MemoryQuotaLedger()
    const a = new DailyQuota({ id: 'a', ledger })
    const b = new DailyQuota({ id: 'b', ledger })
    const c = new DailyQuota({ id: 'c', ledger })
    a.useKey('k1')
    b.useKey('k1')
    c.useKey('k9')
    spend(a, 600)
    spend(b, 400)
    expect(a.used()).toBe(1000)
    expect(b.used()).toBe(1000)
    expect(c.used()).toBe(0)
    // A profile made later with the same key starts from the shared count.
    const d = new DailyQuota({ id: 'd', ledger })
    d.useKey('k1')
    expect(d.used()).toBe(1000)
  })

  it('the shared count survives a restart through the real file, narrower buckets apart', async () => {
    const path = join(dir, 'quota.json')
    const file = new QuotaFile(path)
    const a = new DailyQuota({ id: 'a', ledger: file })
    const aRpc = new DailyQuota({ id: 'a|rpc', bucket: 'rpc', ledger: file })
    a.useKey('k1')
    aRpc.useKey('k1')
    spend(a, 5)
    spend(aRpc, 3)
    a.flush()
    aRpc.flush()
    await file.settled()
    const reopened = new QuotaFile(path)
    const b = new DailyQuota({ id: 'b', ledger: reopened })
    b.useKey('k1')
    expect(b.used()).toBe(5)
    const bRpc = new DailyQuota({ id: 'b|rpc', bucket: 'rpc', ledger: reopened })
    bRpc.useKey('k1')
    expect(bRpc.used()).toBe(3)
  })

  it("a count an earlier version saved under the profile id is carried into its key's count", () => {
    const ledger = new MemoryQuotaLedger()
    ledger.records.set('p', { day: '2030-01-01', used: 640, keyTag: 'k1' })
    const quota = new DailyQuota({ id: 'p', ledger })
    // Shown before the first request, and kept once the key is in use.
    expect(quota.used()).toBe(640)
    quota.useKey('k1')
    spend(quota, 1)
    expect(quota.used()).toBe(641)
    // Another profile on the same key now sees it too.
    const other = new DailyQuota({ id: 'q', ledger })
    other.useKey('k1')
    expect(other.used()).toBe(641)
  })
})

/** A ledger that writes in the background: each save lands only when the test says so. */
class SlowLedger extends MemoryQuotaLedger {
  readonly onDisk = new Map<string, QuotaRecord>()
  readonly #waiting: (() => void)[] = []
  override save(id: string, record: QuotaRecord): Promise<void> {
    super.save(id, record)
    return new Promise((resolve) =>
      this.#waiting.push(() => {
        this.onDisk.set(id, { ...record })
        resolve()
      }),
    )
  }
  /** Lands every write asked for so far, in order. */
  async land(): Promise<void> {
    for (const done of this.#waiting.splice(0)) done()
    await Promise.resolve()
    await Promise.resolve()
  }
}

/** Sends `n` requests as the limiter does: each waits until a count covering it is on disk. */
async function send(quota: DailyQuota, ledger: SlowLedger, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    if (quota.ready(1000, 1)) await ledger.land()
    expect(quota.ready(1000, 1)).toBeNull()
    quota.take(1000)
  }
}

describe('DailyQuota on a ledger that writes in the background', () => {
  it('sends nothing past what is on disk, across a UTC day roll with an old write still on its way', async () => {
    const ledger = new SlowLedger()
    const quota = new DailyQuota({ id: 'p', ledger, reserveStep: 10 })
    quota.useKey('k1')
    await send(quota, ledger, 3)
    // The next reserve is asked, and the day ends before it lands.
    await send(quota, ledger, 7)
    expect(quota.ready(1000, 1)).not.toBeNull()
    vi.setSystemTime(NOON + 24 * 3600_000)
    expect(quota.used()).toBe(0)
    await ledger.land()
    // The old day's write landed: it covers nothing of the new day.
    expect(quota.ready(1000, 1)).not.toBeNull()
    await ledger.land()
    expect(quota.ready(1000, 1)).toBeNull()
  })

  it('an exact flush by one quota lowers what another quota of the same key trusts', async () => {
    const ledger = new SlowLedger()
    const a = new DailyQuota({ id: 'a', ledger, reserveStep: 10 })
    const b = new DailyQuota({ id: 'b', ledger, reserveStep: 10 })
    a.useKey('k1')
    b.useKey('k1')
    await send(a, ledger, 3)
    await ledger.land()
    expect(ledger.onDisk.get('key:k1')?.used).toBe(10)
    a.flush()
    await ledger.land()
    expect(ledger.onDisk.get('key:k1')?.used).toBe(3)
    // b shares the count: its next request waits for a reserve, it does not trust the old 10.
    expect(b.ready(1000, 1)).not.toBeNull()
  })
})

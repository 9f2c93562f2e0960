import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AppError } from '../util/app-error'
import { systemClock } from '../util/clock'
import { WatchlistStore } from '../watchlists/watchlist-store'
import { describeChanges, WatchService } from './watch-service'
import { addr } from '../testing/address'

/** The periodic watch check's schedule: off by default, inside its budget, only while visible. */
let dir: string
beforeEach(async () => {
  vi.useFakeTimers({ now: Date.UTC(2030, 0, 1, 9) })
  dir = mkdtempSync(join(tmpdir(), 'watch-service-'))
})
/**
 * Services made by a test: disposed, and their state writes ended, before the folder goes. Ended,
 * not only decided: hours of fake time pass a save's deadline while its real write is under way,
 * and a write given up still removes its temp file after the save was refused.
 */
const made: WatchService[] = []
afterEach(async () => {
  vi.useRealTimers()
  for (const w of made.splice(0)) {
    w.dispose()
    await w.writesEnded()
  }
  rmSync(dir, { recursive: true, force: true })
})

async function service(addresses: number, quota = 1000, sub = 'a') {
  const dataDir = join(dir, sub)
  const watchlists = new WatchlistStore({ dataDir })
  const list = await watchlists.create('W')
  for (let i = 0; i < addresses; i++)
    await watchlists.addEntry(list.id, {
      address: addr(`0x${(i + 1).toString(16).padStart(40, '0')}`),
      network: 'alpha',
      label: '',
      note: '',
      tags: [],
    })
  // Every check is counted here; it fails at once (no runtime needed to test the schedule).
  const active = vi.fn(async () => {
    throw new AppError('offline', 'not in this test')
  })
  const w = new WatchService({
    dataDir,
    watchlists,
    active,
    activeId: () => 'p',
    quotaPerDay: () => quota,
    clock: systemClock,
    onChanged: () => {},
    onHead: () => {},
    log: { info() {}, warn() {}, error() {} },
  })
  made.push(w)
  return { w, active }
}

describe('WatchService periodic check', () => {
  it('is off by default; when on, runs at the interval its budget allows, only while visible', async () => {
    const { w, active } = await service(50)
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(24 * 3600_000)
    expect(active).not.toHaveBeenCalled()
    expect(w.settings()).toMatchObject({ periodic: false, budgetFraction: 0.05 })

    w.setSettings({ periodic: true })
    // 5 % of 1000 = 50 requests a day; a check of 50 addresses ≈ 1 + 2·5 = 11 → 4 checks a day.
    const interval = w.intervalMs()!
    expect(interval).toBe(Math.ceil((24 * 3600_000) / (50 / 11)))
    expect(w.settings().intervalMinutes).toBe(Math.round(interval / 60_000))
    await vi.advanceTimersByTimeAsync(interval * 3 + 10)
    expect(active).toHaveBeenCalledTimes(3)
    // The budget over a visible day stays within 5 % of the quota.
    expect(Math.floor((24 * 3600_000) / interval) * 11).toBeLessThanOrEqual(50)

    w.setVisible(false)
    await vi.advanceTimersByTimeAsync(interval * 5)
    expect(active).toHaveBeenCalledTimes(3)
    w.setVisible(true)
    await vi.advanceTimersByTimeAsync(interval + 10)
    expect(active).toHaveBeenCalledTimes(4)
    w.dispose()
  })

  it('a larger budget checks more often; one too small for a check a day does not run at all', async () => {
    const { w } = await service(50)
    w.setSettings({ periodic: true, budgetFraction: 0.2 })
    expect(w.intervalMs()).toBe(Math.ceil((24 * 3600_000) / (200 / 11)))
    const tiny = await service(50, 100, 'b')
    tiny.w.setSettings({ periodic: true, budgetFraction: 0.01 })
    expect(tiny.w.intervalMs()).toBeNull()
    expect(tiny.w.settings().intervalMinutes).toBeNull()
  })
})

describe('describeChanges', () => {
  it('words what changed for the notification', async () => {
    const base = {
      network: 'alpha',
      address: '0x1',
      unseen: true,
      newTxsMore: false,
      deltas: [],
      checkedAt: null,
      baseline: true,
    }
    expect(describeChanges([{ ...base, newTxs: 2 }])).toBe('1 watched address changed: 2 new transactions.')
    expect(
      describeChanges([
        { ...base, newTxs: 0, deltas: [{ token: null, standard: 'coin', delta: '5', symbol: null, decimals: 18 }] },
        { ...base, newTxs: 1, newTxsMore: true },
      ]),
    ).toBe('2 watched addresses changed: 1+ new transactions, balances moved.')
  })
})

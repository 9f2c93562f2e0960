import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WATCH_LIMITS } from '@shared/domain/watch-limits'
import { WatchlistStore } from './watchlist-store'
import { addr } from '../testing/address'

const NOW = Date.UTC(2030, 4, 6, 7, 8, 9)
const address = (i: number): string => `0x${i.toString(16).padStart(40, '0')}`

let dir: string
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'watchlist-limits-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const open = (): WatchlistStore => new WatchlistStore({ dataDir: dir, now: () => NOW })

/** What a restart shows, and what it says. */
function reload(): { names: string[]; sizes: number[]; notice: string | null } {
  const again = open()
  return {
    names: again.list().map((l) => l.name),
    sizes: again.list().map((l) => l.entries.length),
    notice: again.notice,
  }
}

const csv = (rows: { list: string; i: number }[]): string =>
  ['list,address,network', ...rows.map((r) => `${r.list},${address(r.i)},alpha`)].join('\n')

describe('WatchlistStore keeps only what it can load again', () => {
  it(`refuses an import that would make more than ${WATCH_LIMITS.lists} lists, saying the limit, and loses nothing`, async () => {
    const store = open()
    await store.create('Kept')
    const rows = Array.from({ length: WATCH_LIMITS.lists }, (_, i) => ({ list: `L${i}`, i }))
    await expect(store.import('csv', csv(rows))).rejects.toThrow(
      expect.objectContaining({
        kind: 'invalid-input',
        message: expect.stringMatching(/at most 500 watchlists.*1 already.*500 more/s),
      }),
    )
    // One more change, then a restart: everything is still there.
    await store.create('Another')
    expect(reload()).toEqual({ names: ['Kept', 'Another'], sizes: [0, 0], notice: null })
  })

  it('refuses one list too many by hand, and keeps a full set of lists loadable', async () => {
    const store = open()
    const rows = Array.from({ length: WATCH_LIMITS.lists - 1 }, (_, i) => ({ list: `L${i}`, i }))
    await store.import('csv', csv(rows))
    await store.create('Last')
    await expect(store.create('One too many')).rejects.toThrow(
      expect.objectContaining({ kind: 'invalid-input', message: expect.stringMatching(/at most 500 watchlists/) }),
    )
    await store.rename(store.list()[0]!.id, 'Renamed')
    const after = reload()
    expect(after.notice).toBeNull()
    expect(after.names).toHaveLength(WATCH_LIMITS.lists)
    expect(after.names[0]).toBe('Renamed')
  })

  it(`refuses a move or an add into a list of ${WATCH_LIMITS.entries} entries, and loses nothing`, async () => {
    const store = open()
    const full = Array.from({ length: WATCH_LIMITS.entries }, (_, i) => ({ list: 'Full', i }))
    await store.import('csv', csv(full))
    await store.import('csv', csv([{ list: 'Other', i: WATCH_LIMITS.entries + 1 }]))
    const [fullList, other] = store.list()
    await expect(store.moveEntry(other!.id, fullList!.id, other!.entries[0]!.id)).rejects.toThrow(
      expect.objectContaining({ kind: 'invalid-input', message: expect.stringMatching(/"Full" holds 10,000 entries/) }),
    )
    await expect(
      store.addEntry(fullList!.id, {
        address: addr(address(WATCH_LIMITS.entries + 2)),
        network: 'alpha',
        label: '',
        note: '',
        tags: [],
      }),
    ).rejects.toThrow(expect.objectContaining({ kind: 'invalid-input' }))
    await store.rename(other!.id, 'Still here')
    expect(reload()).toEqual({ names: ['Full', 'Still here'], sizes: [WATCH_LIMITS.entries, 1], notice: null })
  })

  it('never makes an unloadable file the backup', async () => {
    const store = open()
    const rows = Array.from({ length: WATCH_LIMITS.lists }, (_, i) => ({ list: `L${i}`, i }))
    await store.create('Kept')
    await store.create('Second')
    try {
      await store.import('csv', csv(rows))
    } catch {
      // refused: checked above
    }
    await store.create('Third')
    const backup = JSON.parse(readFileSync(join(dir, 'watchlists.json.bak'), 'utf8')) as { lists: unknown[] }
    expect(backup.lists).toHaveLength(2)
  })
})

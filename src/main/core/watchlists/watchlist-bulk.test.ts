import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WatchlistStore } from './watchlist-store'
import { CaseStore } from '../cases/case-store'
import { addr } from '../testing/address'

const A = '0x52908400098527886e0f7030069857d2e4169ee7'
const B = '0x8617e340b3d01fa5f11f306f4090fd50e238070d'
const C = '0xde709f2102306220921060314715629080e2fb77'
const NOW = Date.UTC(2030, 4, 6)

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bulk-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))
const entry = (address: string, label = '') => ({ address: addr(address), network: 'alpha', label, note: '', tags: [] })

describe('adding a pasted list: one write, all or nothing', () => {
  it('a watchlist takes the list in order, and keeps it across a restart', async () => {
    const store = new WatchlistStore({ dataDir: dir, now: () => NOW })
    const l = await store.create('Desk')
    const after = await store.addEntries(l.id, [entry(A, 'Cold'), entry(B), entry(C)])
    expect(after.entries.map((e) => [e.address, e.label])).toEqual([
      [A, 'Cold'],
      [B, ''],
      [C, ''],
    ])
    expect(new Set(after.entries.map((e) => e.id)).size).toBe(3)
    const again = new WatchlistStore({ dataDir: dir, now: () => NOW })
    expect((await again.list())[0]!.entries).toHaveLength(3)
  })

  it('a watchlist refuses the whole list when one address is there already, or twice in it', async () => {
    const store = new WatchlistStore({ dataDir: dir, now: () => NOW })
    const l = await store.create('Desk')
    await store.addEntry(l.id, entry(B))
    await expect(store.addEntries(l.id, [entry(A), entry(B)])).rejects.toThrow(/already holds .*nothing was added/)
    await expect(store.addEntries(l.id, [entry(A), entry(A)])).rejects.toThrow(/nothing was added/)
    expect((await store.list())[0]!.entries.map((e) => e.address)).toEqual([B])
  })

  it('a case takes the list in one write and refuses it whole on a repeat', async () => {
    const store = new CaseStore({ dataDir: dir, now: () => NOW })
    const c = await store.create('Hack', { address: addr(A), network: 'alpha' })
    await expect(
      store.addAddresses(c.id, [
        { address: addr(B), network: 'alpha' },
        { address: addr(A), network: 'alpha' },
      ]),
    ).rejects.toThrow(/in the case already; nothing was added/)
    const after = await store.addAddresses(c.id, [
      { address: addr(B), network: 'alpha', label: 'Mixer' },
      { address: addr(C), network: 'beta' },
    ])
    expect(after.addresses.map((a) => [a.address, a.network, a.label])).toEqual([
      [A, 'alpha', ''],
      [B, 'alpha', 'Mixer'],
      [C, 'beta', ''],
    ])
  })
})

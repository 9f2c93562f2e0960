import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WatchlistStore } from './watchlist-store'
import { addr } from '../testing/address'

const A = '0x52908400098527886e0f7030069857d2e4169ee7'
let dir: string
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'watch-networks-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))
const open = (): WatchlistStore => new WatchlistStore({ dataDir: dir, now: () => Date.UTC(2030, 0, 1) })

describe('a watch entry on both networks', () => {
  it('keeps other networks on the entry, drops its own and repeats, and survives a restart and an export round trip', async () => {
    const store = open()
    const list = await store.create('Both')
    const added = await store.addEntry(list.id, {
      address: addr(A),
      network: 'alpha',
      label: 'MM',
      note: '',
      tags: [],
      alsoNetworks: ['beta', 'alpha', 'beta'],
    })
    expect(added.entries[0]!.alsoNetworks).toEqual(['beta'])
    await store.updateEntry(list.id, added.entries[0]!.id, { alsoNetworks: ['gamma', 'beta'] })
    expect(open().list()[0]!.entries[0]!.alsoNetworks).toEqual(['gamma', 'beta'])
    const json = store.export('json')
    const other = new WatchlistStore({ dataDir: join(dir, 'other') })
    await other.import('json', json.text)
    expect(other.list()[0]!.entries[0]!.alsoNetworks).toEqual(['gamma', 'beta'])
  })

  it('reads version-2 files written before the field existed, unchanged', async () => {
    const old = {
      version: 2,
      lists: [
        {
          id: 'l',
          name: 'Old',
          entries: [
            {
              id: 'e',
              address: addr(A),
              network: 'alpha',
              label: '',
              note: '',
              tags: [],
              addedAt: '2029-01-01T00:00:00.000Z',
            },
          ],
        },
      ],
    }
    writeFileSync(join(dir, 'watchlists.json'), JSON.stringify(old))
    const store = open()
    expect(store.notice).toBeNull()
    expect(store.list()[0]!.entries[0]).not.toHaveProperty('alsoNetworks')
    expect(JSON.parse(readFileSync(join(dir, 'watchlists.json'), 'utf8'))).toEqual(old)
  })

  it('refuses an import whose alsoNetworks is not a list of network names', async () => {
    const store = open()
    const text = JSON.stringify({
      lists: [{ name: 'X', entries: [{ address: A, network: 'alpha', alsoNetworks: ['Beta!'] }] }],
    })
    await expect(store.import('json', text)).rejects.toThrow(
      expect.objectContaining({ kind: 'invalid-input', message: expect.stringContaining('alsoNetworks') }),
    )
  })
})

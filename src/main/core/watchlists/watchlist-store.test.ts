import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Watchlist } from '@shared/bridge/contract'
import { WatchlistStore } from './watchlist-store'
import { addr } from '../testing/address'

const A = '0x52908400098527886e0f7030069857d2e4169ee7' // EIP-55 test vector, lowercase
const A_CHECKSUMMED = '0x52908400098527886E0F7030069857D2E4169EE7'
const B = '0x8617e340b3d01fa5f11f306f4090fd50e238070d'
const C = '0xde709f2102306220921060314715629080e2fb77'
const NOW = Date.UTC(2030, 4, 6, 7, 8, 9)

let dir: string
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'watchlists-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const open = (onChange?: (l: Watchlist[]) => void): WatchlistStore =>
  new WatchlistStore({ dataDir: dir, now: () => NOW, onChange })
const entry = (
  address: string,
  network = 'alpha',
  extra: Partial<{ label: string; note: string; tags: string[] }> = {},
) => ({
  address: addr(address),
  network,
  label: '',
  note: '',
  tags: [],
  ...extra,
})

describe('WatchlistStore', () => {
  it('creates, renames, fills, edits, moves and deletes, and every change survives a restart', async () => {
    const events: Watchlist[][] = []
    const store = open((l) => events.push(l))
    const work = await store.create('Work')
    const cold = await store.create('Cold wallets')
    await expect(store.create('work')).rejects.toThrow(expect.objectContaining({ kind: 'conflict' }))
    await store.rename(work.id, 'Desk')
    const filled = await store.addEntry(
      work.id,
      entry(A_CHECKSUMMED, 'alpha', { label: 'Treasury', tags: ['dao', 'dao', 'big'] }),
    )
    const added = filled.entries[0]!
    expect(added).toMatchObject({
      address: A,
      network: 'alpha',
      label: 'Treasury',
      tags: ['dao', 'big'],
      addedAt: new Date(NOW).toISOString(),
    })
    await expect(store.addEntry(work.id, entry(A))).rejects.toThrow(expect.objectContaining({ kind: 'conflict' }))
    await store.addEntry(work.id, entry(A, 'beta'))
    await store.updateEntry(work.id, added.id, { note: 'multisig', tags: ['x'] })
    const moved = await store.moveEntry(work.id, cold.id, added.id)
    expect(moved.map((l) => l.entries.length)).toEqual([1, 1])
    expect(moved[1]!.entries[0]).toMatchObject({ id: added.id, note: 'multisig', tags: ['x'], label: 'Treasury' })
    expect(events.length).toBe(7)

    const again = open()
    expect(again.list().map((l) => [l.name, l.entries.map((e) => `${e.network}:${e.address}:${e.note}`)])).toEqual([
      ['Desk', ['beta:' + A + ':']],
      ['Cold wallets', ['alpha:' + A + ':multisig']],
    ])
    await again.removeEntry(cold.id, added.id)
    await again.delete(work.id)
    expect(open().list()).toEqual([{ id: cold.id, name: 'Cold wallets', entries: [] }])
  })

  it('answers not-found for lists and entries that are gone', async () => {
    const store = open()
    const l = await store.create('L')
    await expect(store.rename('nope', 'x')).rejects.toThrow(expect.objectContaining({ kind: 'not-found' }))
    await expect(store.removeEntry(l.id, 'nope')).rejects.toThrow(expect.objectContaining({ kind: 'not-found' }))
    await expect(store.moveEntry(l.id, 'nope', 'x')).rejects.toThrow(expect.objectContaining({ kind: 'not-found' }))
  })

  it('refuses to move onto a duplicate', async () => {
    const store = open()
    const a = await store.create('A')
    const b = await store.create('B')
    const e = (await store.addEntry(a.id, entry(A))).entries[0]!
    await store.addEntry(b.id, entry(A))
    await expect(store.moveEntry(a.id, b.id, e.id)).rejects.toThrow(expect.objectContaining({ kind: 'conflict' }))
    expect(store.list().map((l) => l.entries.length)).toEqual([1, 1])
  })

  it('keeps a backup of the last good file and restores it when the file is damaged, telling the user', async () => {
    const store = open()
    const l = await store.create('Keep me')
    await store.addEntry(l.id, entry(A))
    expect(existsSync(join(dir, 'watchlists.json.bak'))).toBe(true)
    writeFileSync(join(dir, 'watchlists.json'), '{"version":2,"lists":[{"id":"x","name":"half')
    const restored = open()
    expect(restored.notice).toMatch(/damaged .* restored from its backup/)
    expect(restored.list().map((x) => x.name)).toEqual(['Keep me'])
    // The damaged file is kept aside, never deleted.
    expect(readdirSync(dir).some((f) => f.startsWith('watchlists.json.damaged-'))).toBe(true)
    expect(JSON.parse(readFileSync(join(dir, 'watchlists.json'), 'utf8')).lists[0].name).toBe('Keep me')
  })

  it('starts empty with a notice when neither the file nor its backup is usable', async () => {
    writeFileSync(join(dir, 'watchlists.json'), 'garbage')
    const store = open()
    expect(store.list()).toEqual([])
    expect(store.notice).toMatch(/no usable backup/)
  })

  it('treats an entry listed twice as damage, not as data', async () => {
    const l = {
      id: 'l',
      name: 'L',
      entries: [1, 2].map((i) => ({
        id: `e${i}`,
        address: A,
        network: 'alpha',
        label: '',
        note: '',
        tags: [],
        addedAt: '2030-01-01T00:00:00.000Z',
      })),
    }
    writeFileSync(join(dir, 'watchlists.json'), JSON.stringify({ version: 2, lists: [l] }))
    expect(open().notice).toMatch(/twice/)
  })

  it('migrates a version 1 file', async () => {
    writeFileSync(
      join(dir, 'watchlists.json'),
      JSON.stringify({
        version: 1,
        lists: [
          {
            name: 'Old',
            items: [
              { address: A_CHECKSUMMED, network: 'alpha', label: 'T', added: '2020-01-02T03:04:05Z' },
              { address: B, network: 'beta' },
            ],
          },
        ],
      }),
    )
    const store = open()
    expect(store.notice).toBeNull()
    const [list] = store.list()
    expect(list!.entries).toEqual([
      expect.objectContaining({
        address: A,
        network: 'alpha',
        label: 'T',
        note: '',
        tags: [],
        addedAt: '2020-01-02T03:04:05Z',
      }),
      expect.objectContaining({ address: B, network: 'beta', label: '' }),
    ])
    await store.rename(list!.id, 'Old (migrated)')
    expect(JSON.parse(readFileSync(join(dir, 'watchlists.json'), 'utf8')).version).toBe(2)
    // The version 1 file is the backup of the first save.
    expect(JSON.parse(readFileSync(join(dir, 'watchlists.json.bak'), 'utf8')).version).toBe(1)
  })

  it('leaves a file from a newer version untouched and read-only', async () => {
    const future = JSON.stringify({ version: 9, lists: [], whatever: true })
    writeFileSync(join(dir, 'watchlists.json'), future)
    const store = open()
    expect(store.readOnly).toBe(true)
    expect(store.notice).toMatch(/newer version/)
    await expect(store.create('x')).rejects.toThrow(expect.objectContaining({ kind: 'conflict' }))
    expect(readFileSync(join(dir, 'watchlists.json'), 'utf8')).toBe(future)
  })

  it('changes nothing when the disk refuses the write', async () => {
    const store = open()
    const l = await store.create('L')
    rmSync(join(dir, 'watchlists.json'))
    mkdirSync(join(dir, 'watchlists.json', 'blocker'), { recursive: true }) // a folder where the file must go
    await expect(store.addEntry(l.id, entry(A))).rejects.toThrow(
      expect.objectContaining({ kind: 'internal', message: expect.stringMatching(/nothing was changed/) }),
    )
    expect(store.list()[0]!.entries).toEqual([])
  })
})

describe('WatchlistStore import and export', () => {
  it('imports CSV into a new list, all rows or none, naming every bad row', async () => {
    const store = open()
    const bad = [
      'address,network,label,tags',
      `${A},alpha,ok,a;b`,
      '0x123,alpha,short,',
      `${B},Beta!,bad network,`,
      `${A.slice(0, 2)}${A.slice(2).replace('e', 'E')},alpha,bad checksum,`,
      `${A},alpha,duplicate,`,
    ].join('\n')
    let error: unknown
    try {
      await store.import('csv', bad, 'Mine')
    } catch (e) {
      error = e
    }
    expect(error).toMatchObject({ kind: 'invalid-input', details: { field: 'text' } })
    const rows = (error as { details: { rows: { row: number; message: string }[] } }).details.rows
    expect(rows.map((r) => r.row)).toEqual([3, 4, 5, 6])
    expect(rows[0]!.message).toMatch(/40 hex characters/)
    expect(rows[1]!.message).toMatch(/not a network name/)
    expect(rows[2]!.message).toMatch(/checksum/)
    expect(rows[3]!.message).toMatch(/row 2/)
    expect(store.list()).toEqual([])

    const good = [
      'Address , NETWORK,label,note,tags,added_at',
      `${A_CHECKSUMMED},alpha,"Treasury, main","says ""hi""",dao;big,2021-01-01T00:00:00Z`,
      `${B},beta,,,,`,
    ].join('\r\n')
    expect(await store.import('csv', good, 'Mine')).toEqual({ lists: 1, entries: 2 })
    const [list] = store.list()
    expect(list!.name).toBe('Mine')
    expect(list!.entries[0]).toMatchObject({
      address: A,
      label: 'Treasury, main',
      note: 'says "hi"',
      tags: ['dao', 'big'],
      addedAt: '2021-01-01T00:00:00.000Z',
    })
    expect(list!.entries[1]).toMatchObject({ address: B, network: 'beta', addedAt: new Date(NOW).toISOString() })
  })

  it('refuses a CSV without the needed columns, or with no rows', async () => {
    const store = open()
    await expect(store.import('csv', 'addr,net\n1,2\n')).rejects.toThrow(
      expect.objectContaining({ kind: 'invalid-input', message: expect.stringMatching(/"address" and "network"/) }),
    )
    await expect(store.import('csv', 'address,network\n')).rejects.toThrow(
      expect.objectContaining({ message: expect.stringMatching(/no watchlist entries/) }),
    )
    await expect(store.import('csv', 'address,network\n"x,alpha\n')).rejects.toThrow(
      expect.objectContaining({ message: expect.stringMatching(/line 2/) }),
    )
  })

  it('round-trips JSON and CSV exports of every list', async () => {
    const store = open()
    const l = await store.create('Desk')
    await store.addEntry(l.id, entry(A, 'alpha', { label: '=SUM(A1)', note: 'multi\nline', tags: ['t1'] }))
    await store.addEntry(l.id, entry(C, 'beta'))
    const other = await store.create('Other')
    await store.addEntry(other.id, entry(B, 'alpha'))
    for (const format of ['json', 'csv'] as const) {
      const file = store.export(format)
      expect(file.filename).toBe(`chainscope-watchlists-2030-05-06.${format}`)
      expect(file.text).toContain(A_CHECKSUMMED)
      const target = new WatchlistStore({ dataDir: mkdtempSync(join(dir, 'target-')), now: () => NOW })
      expect(await target.import(format, file.text)).toEqual({ lists: 2, entries: 3 })
      const strip = (ls: Watchlist[]) =>
        ls.map((x) => ({ name: x.name, entries: x.entries.map(({ id: _id, ...e }) => e) }))
      expect(strip(target.list())).toEqual(strip(store.list()))
    }
    const csv = store.export('csv', l.id)
    expect(csv.filename).toBe('desk-2030-05-06.csv')
    expect(csv.text).toContain(`,"'=SUM(A1)",`)
  })

  it('imports into new lists and never merges into or renames existing ones', async () => {
    const store = open()
    await store.create('Desk')
    const json = JSON.stringify({ format: 'chainscope-watchlists', lists: [{ name: 'Desk', entries: [entry(A)] }] })
    await store.import('json', json)
    await store.import('json', json)
    expect(store.list().map((l) => l.name)).toEqual(['Desk', 'Desk (2)', 'Desk (3)'])
  })

  it('reads a bare JSON array and names JSON rows by position', async () => {
    const store = open()
    expect(await store.import('json', JSON.stringify([entry(A), entry(B, 'beta')]), 'Plain')).toEqual({
      lists: 1,
      entries: 2,
    })
    await expect(
      store.import('json', JSON.stringify([entry(A), { address: A, network: 'alpha', tags: 'x'.repeat(50) }])),
    ).rejects.toThrow(
      expect.objectContaining({
        details: expect.objectContaining({ rows: [{ row: 2, message: expect.stringMatching(/tags/) }] }),
      }),
    )
    await expect(store.import('json', '{"lists": 3}')).rejects.toThrow(
      expect.objectContaining({ message: expect.stringMatching(/not a watchlist export/) }),
    )
    await expect(store.import('json', '{nope')).rejects.toThrow(
      expect.objectContaining({ message: expect.stringMatching(/not valid JSON/) }),
    )
  })
})

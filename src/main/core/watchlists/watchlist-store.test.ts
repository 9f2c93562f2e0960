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
beforeEach(() => {
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
  it('creates, renames, fills, edits, moves and deletes, and every change survives a restart', () => {
    const events: Watchlist[][] = []
    const store = open((l) => events.push(l))
    const work = store.create('Work')
    const cold = store.create('Cold wallets')
    expect(() => store.create('work')).toThrow(expect.objectContaining({ kind: 'conflict' }))
    store.rename(work.id, 'Desk')
    const filled = store.addEntry(
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
    expect(() => store.addEntry(work.id, entry(A))).toThrow(expect.objectContaining({ kind: 'conflict' }))
    store.addEntry(work.id, entry(A, 'beta'))
    store.updateEntry(work.id, added.id, { note: 'multisig', tags: ['x'] })
    const moved = store.moveEntry(work.id, cold.id, added.id)
    expect(moved.map((l) => l.entries.length)).toEqual([1, 1])
    expect(moved[1]!.entries[0]).toMatchObject({ id: added.id, note: 'multisig', tags: ['x'], label: 'Treasury' })
    expect(events.length).toBe(7)

    const again = open()
    expect(again.list().map((l) => [l.name, l.entries.map((e) => `${e.network}:${e.address}:${e.note}`)])).toEqual([
      ['Desk', ['beta:' + A + ':']],
      ['Cold wallets', ['alpha:' + A + ':multisig']],
    ])
    again.removeEntry(cold.id, added.id)
    again.delete(work.id)
    expect(open().list()).toEqual([{ id: cold.id, name: 'Cold wallets', entries: [] }])
  })

  it('answers not-found for lists and entries that are gone', () => {
    const store = open()
    const l = store.create('L')
    expect(() => store.rename('nope', 'x')).toThrow(expect.objectContaining({ kind: 'not-found' }))
    expect(() => store.removeEntry(l.id, 'nope')).toThrow(expect.objectContaining({ kind: 'not-found' }))
    expect(() => store.moveEntry(l.id, 'nope', 'x')).toThrow(expect.objectContaining({ kind: 'not-found' }))
  })

  it('refuses to move onto a duplicate', () => {
    const store = open()
    const a = store.create('A')
    const b = store.create('B')
    const e = store.addEntry(a.id, entry(A)).entries[0]!
    store.addEntry(b.id, entry(A))
    expect(() => store.moveEntry(a.id, b.id, e.id)).toThrow(expect.objectContaining({ kind: 'conflict' }))
    expect(store.list().map((l) => l.entries.length)).toEqual([1, 1])
  })

  it('keeps a backup of the last good file and restores it when the file is damaged, telling the user', () => {
    const store = open()
    const l = store.create('Keep me')
    store.addEntry(l.id, entry(A))
    expect(existsSync(join(dir, 'watchlists.json.bak'))).toBe(true)
    writeFileSync(join(dir, 'watchlists.json'), '{"version":2,"lists":[{"id":"x","name":"half')
    const restored = open()
    expect(restored.notice).toMatch(/damaged .* restored from its backup/)
    expect(restored.list().map((x) => x.name)).toEqual(['Keep me'])
    // The damaged file is kept aside, never deleted.
    expect(readdirSync(dir).some((f) => f.startsWith('watchlists.json.damaged-'))).toBe(true)
    expect(JSON.parse(readFileSync(join(dir, 'watchlists.json'), 'utf8')).lists[0].name).toBe('Keep me')
  })

  it('starts empty with a notice when neither the file nor its backup is usable', () => {
    writeFileSync(join(dir, 'watchlists.json'), 'garbage')
    const store = open()
    expect(store.list()).toEqual([])
    expect(store.notice).toMatch(/no usable backup/)
  })

  it('treats an entry listed twice as damage, not as data', () => {
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

  it('migrates a version 1 file', () => {
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
    store.rename(list!.id, 'Old (migrated)')
    expect(JSON.parse(readFileSync(join(dir, 'watchlists.json'), 'utf8')).version).toBe(2)
    // The version 1 file is the backup of the first save.
    expect(JSON.parse(readFileSync(join(dir, 'watchlists.json.bak'), 'utf8')).version).toBe(1)
  })

  it('leaves a file from a newer version untouched and read-only', () => {
    const future = JSON.stringify({ version: 9, lists: [], whatever: true })
    writeFileSync(join(dir, 'watchlists.json'), future)
    const store = open()
    expect(store.readOnly).toBe(true)
    expect(store.notice).toMatch(/newer version/)
    expect(() => store.create('x')).toThrow(expect.objectContaining({ kind: 'conflict' }))
    expect(readFileSync(join(dir, 'watchlists.json'), 'utf8')).toBe(future)
  })

  it('changes nothing when the disk refuses the write', () => {
    const store = open()
    const l = store.create('L')
    rmSync(join(dir, 'watchlists.json'))
    mkdirSync(join(dir, 'watchlists.json', 'blocker'), { recursive: true }) // a folder where the file must go
    expect(() => store.addEntry(l.id, entry(A))).toThrow(
      expect.objectContaining({ kind: 'internal', message: expect.stringMatching(/nothing was changed/) }),
    )
    expect(store.list()[0]!.entries).toEqual([])
  })
})

describe('WatchlistStore import and export', () => {
  it('imports CSV into a new list, all rows or none, naming every bad row', () => {
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
      store.import('csv', bad, 'Mine')
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
    expect(store.import('csv', good, 'Mine')).toEqual({ lists: 1, entries: 2 })
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

  it('refuses a CSV without the needed columns, or with no rows', () => {
    const store = open()
    expect(() => store.import('csv', 'addr,net\n1,2\n')).toThrow(
      expect.objectContaining({ kind: 'invalid-input', message: expect.stringMatching(/"address" and "network"/) }),
    )
    expect(() => store.import('csv', 'address,network\n')).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/no watchlist entries/) }),
    )
    expect(() => store.import('csv', 'address,network\n"x,alpha\n')).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/line 2/) }),
    )
  })

  it('round-trips JSON and CSV exports of every list', () => {
    const store = open()
    const l = store.create('Desk')
    store.addEntry(l.id, entry(A, 'alpha', { label: '=SUM(A1)', note: 'multi\nline', tags: ['t1'] }))
    store.addEntry(l.id, entry(C, 'beta'))
    const other = store.create('Other')
    store.addEntry(other.id, entry(B, 'alpha'))
    for (const format of ['json', 'csv'] as const) {
      const file = store.export(format)
      expect(file.filename).toBe(`chainscope-watchlists-2030-05-06.${format}`)
      expect(file.text).toContain(A_CHECKSUMMED)
      const target = new WatchlistStore({ dataDir: mkdtempSync(join(dir, 'target-')), now: () => NOW })
      expect(target.import(format, file.text)).toEqual({ lists: 2, entries: 3 })
      const strip = (ls: Watchlist[]) =>
        ls.map((x) => ({ name: x.name, entries: x.entries.map(({ id: _id, ...e }) => e) }))
      expect(strip(target.list())).toEqual(strip(store.list()))
    }
    const csv = store.export('csv', l.id)
    expect(csv.filename).toBe('desk-2030-05-06.csv')
    expect(csv.text).toContain(`,"'=SUM(A1)",`)
  })

  it('imports into new lists and never merges into or renames existing ones', () => {
    const store = open()
    store.create('Desk')
    const json = JSON.stringify({ format: 'chainscope-watchlists', lists: [{ name: 'Desk', entries: [entry(A)] }] })
    store.import('json', json)
    store.import('json', json)
    expect(store.list().map((l) => l.name)).toEqual(['Desk', 'Desk (2)', 'Desk (3)'])
  })

  it('reads a bare JSON array and names JSON rows by position', () => {
    const store = open()
    expect(store.import('json', JSON.stringify([entry(A), entry(B, 'beta')]), 'Plain')).toEqual({
      lists: 1,
      entries: 2,
    })
    expect(() =>
      store.import('json', JSON.stringify([entry(A), { address: A, network: 'alpha', tags: 'x'.repeat(50) }])),
    ).toThrow(
      expect.objectContaining({
        details: expect.objectContaining({ rows: [{ row: 2, message: expect.stringMatching(/tags/) }] }),
      }),
    )
    expect(() => store.import('json', '{"lists": 3}')).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/not a watchlist export/) }),
    )
    expect(() => store.import('json', '{nope')).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/not valid JSON/) }),
    )
  })
})

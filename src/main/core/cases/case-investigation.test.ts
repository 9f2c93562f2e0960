import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { GraphState, PathRecord } from '@shared/domain/case-file'
import { canonicalEntry, GENESIS, verifyLog } from '@shared/domain/case-log'
import { checksumAddress } from '@shared/domain/address'
import { CaseStore } from './case-store'
import { addr } from '../testing/address'

const A = '0x52908400098527886e0f7030069857d2e4169ee7'
const B = '0x8617e340b3d01fa5f11f306f4090fd50e238070d'
const H = `0x${'ab'.repeat(32)}`
let dir: string
let now = Date.UTC(2030, 0, 2)
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'case-inv-'))
  now = Date.UTC(2030, 0, 2)
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))
const open = (): CaseStore =>
  new CaseStore({ dataDir: dir, now: () => (now += 1000), profileName: () => 'Sandbox (built in)' })

const graph: GraphState = {
  version: 2,
  expanded: [
    { address: A, network: 'alpha' },
    { address: B, network: 'alpha' },
  ],
  hopLimit: 4,
  filters: {
    asset: 'native',
    minAmount: null,
    from: '2030-01-01T00:00:00.000Z',
    to: '2030-01-31T23:59:59.999Z',
    direction: 'in',
  },
  selected: { address: B, network: 'alpha' },
  positions: [
    { address: A, network: 'alpha', x: 0, y: 0 },
    { address: B, network: 'alpha', x: 140.25, y: -80 },
  ],
}
const path: PathRecord = {
  network: 'alpha',
  from: A,
  to: B,
  maxHops: 3,
  undirected: false,
  askedAt: '2030-01-02T00:10:00.000Z',
  answer: [
    {
      from: A,
      to: B,
      asset: 'native',
      symbol: 'coin',
      decimals: 18,
      value: '1500000000000000000',
      count: 2,
      firstMs: 1,
      lastMs: 2,
      hashes: [H],
    },
  ],
}
const fileOf = (id: string): string => join(dir, 'cases', `${id}.json`)

describe('a case keeps the whole investigation', () => {
  it('round-trips every saved part across a restart, with the log chained and verified', async () => {
    const store = open()
    const c = await store.create('Drain', { address: addr(A), network: 'alpha' })
    await store.addAddress(c.id, { address: addr(B), network: 'beta', label: 'Exchange', note: 'deposit' })
    await store.updateAddress(c.id, { address: addr(A), network: 'alpha' }, { label: 'Victim', note: 'hot wallet' })
    await store.setNotes(c.id, 'Left on 1 Jan.')
    await store.setGraph(c.id, graph)
    await store.addPath(c.id, path)
    await store.addPath(c.id, { ...path, to: A, from: B, answer: null })
    await store.logFetch(c.id, { what: `Fetched the first page of ${B} on alpha`, cost: '1 request' })

    const saved = open().list()[0]!
    expect(saved.graph).toEqual(graph)
    expect(saved.paths).toEqual([path, { ...path, to: A, from: B, answer: null }])
    expect(saved.notes).toBe('Left on 1 Jan.')
    expect(saved.addresses.map((a) => [a.network, a.address, a.label, a.note])).toEqual([
      ['alpha', A, 'Victim', 'hot wallet'],
      ['beta', B, 'Exchange', 'deposit'],
    ])
    expect(saved.log.map((e) => [e.seq, e.kind, e.what.split(' ').slice(0, 2).join(' ')])).toEqual([
      [1, 'change', 'Case created'],
      [2, 'change', 'Added 0x52908400098527886E0F7030069857D2E4169EE7'],
      [3, 'change', `Added ${checksumAddress(B)}`],
      [4, 'change', 'Changed 0x52908400098527886E0F7030069857D2E4169EE7'],
      [5, 'change', 'Changed the'],
      [6, 'change', 'Saved the'],
      [7, 'change', 'Asked for'],
      [8, 'change', 'Asked for'],
      [9, 'fetch', 'Fetched the'],
    ])
    expect(saved.log[8]).toMatchObject({ profile: 'Sandbox (built in)', cost: '1 request' })
    expect(saved.log[3]!.what).toContain('label set to “Victim”')
    expect(saved.log[6]!.what).toMatch(/within 3 hops: 1 hop$/)
    expect(verifyLog(saved.log)).toBeNull()
    // Checked independently, with Node's own SHA-256 over the documented encoding.
    let prev = GENESIS
    for (const { hash, ...body } of saved.log) {
      expect(body.prev).toBe(prev)
      expect(createHash('sha256').update(canonicalEntry(body), 'utf8').digest('hex')).toBe(hash)
      prev = hash
    }
  })

  it('opens a case whose log was edited on disk, names the entry, and refuses to change it (nothing lost)', async () => {
    const store = open()
    const c = await store.create('Drain', { address: addr(A), network: 'alpha' })
    await store.setNotes(c.id, 'first')
    const doc = JSON.parse(readFileSync(fileOf(c.id), 'utf8'))
    doc.case.log[1].what = 'Added someone else'
    writeFileSync(fileOf(c.id), JSON.stringify(doc))
    const again = open()
    const loaded = again.list()[0]!
    expect(loaded.notes).toBe('first')
    expect(verifyLog(loaded.log)).toEqual({ entry: 2, message: expect.stringContaining('Entry 2') })
    await expect(again.setNotes(c.id, 'second')).rejects.toThrow(/read-only: Entry 2 of the activity log/)
    expect(JSON.parse(readFileSync(fileOf(c.id), 'utf8'))).toEqual(doc)
  })

  it('loads a case saved by version 1 (no paths, positions or log) and logs from there on', async () => {
    const id = 'old-case'
    const v1 = {
      version: 1,
      case: {
        id,
        name: 'Old',
        createdAt: '2029-01-01T00:00:00.000Z',
        updatedAt: '2029-01-01T00:00:00.000Z',
        addresses: [{ address: A, network: 'alpha', label: 'L', note: 'N', addedAt: '2029-01-01T00:00:00.000Z' }],
        notes: 'old notes',
        graph: { ...graph, version: 1, positions: undefined },
      },
    }
    mkdirSync(join(dir, 'cases'))
    writeFileSync(fileOf(id), JSON.stringify(v1))
    const store = open()
    expect(store.notice).toBeNull()
    const [c] = store.list()
    expect(c).toMatchObject({
      notes: 'old notes',
      paths: [],
      log: [],
      graph: { version: 2, positions: [], hopLimit: 4 },
    })
    await store.setNotes(id, 'new notes')
    const saved = JSON.parse(readFileSync(fileOf(id), 'utf8'))
    expect(saved.version).toBe(2)
    expect(saved.case.log).toHaveLength(1)
    // The version 1 file is the backup: nothing lost.
    expect(JSON.parse(readFileSync(`${fileOf(id)}.bak`, 'utf8')).version).toBe(1)
  })

  it('exports and imports the whole investigation, log included and extended', async () => {
    const store = open()
    const c = await store.create('Drain', { address: addr(A), network: 'alpha' })
    await store.setGraph(c.id, graph)
    await store.addPath(c.id, path)
    const imported = await store.import(store.export(c.id).text)
    expect(imported).toMatchObject({ graph, paths: [path] })
    expect(imported.log.at(-1)!.what).toBe('Imported from a case file')
    expect(verifyLog(imported.log)).toBeNull()
  })
})

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { emptyGraphState, type GraphState } from '@shared/domain/case-file'
import { CaseStore } from './case-store'
import { addr } from '../testing/address'

const A = '0x52908400098527886e0f7030069857d2e4169ee7'
const B = '0x8617e340b3d01fa5f11f306f4090fd50e238070d'
const now = Date.UTC(2030, 0, 2)
let dir: string
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cases-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))
const open = (): CaseStore => new CaseStore({ dataDir: dir, now: () => now })
const graph: GraphState = {
  version: 2,
  expanded: [{ address: A, network: 'alpha' }],
  hopLimit: 3,
  filters: {
    asset: 'native',
    minAmount: '1000000000000000000',
    from: '2030-01-01T00:00:00.000Z',
    to: null,
    direction: 'out',
  },
  selected: { address: B, network: 'beta' },
  positions: [{ address: A, network: 'alpha', x: 12.5, y: -40 }],
}

describe('CaseStore', () => {
  it('keeps a case with addresses on both networks, notes, labels and graph state across a restart', async () => {
    const store = open()
    const c = await store.create('Stolen ether', {
      address: addr(A.toUpperCase().replace('0X', '0x')),
      network: 'alpha',
    })
    await store.addAddress(c.id, { address: addr(B), network: 'beta', label: 'Mixer deposit', note: 'first hop' })
    await store.addAddress(c.id, { address: addr(A), network: 'beta' })
    await store.updateAddress(c.id, { address: addr(A), network: 'alpha' }, { label: 'Victim' })
    await store.setNotes(c.id, 'Funds left on 1 Jan.')
    await store.setGraph(c.id, graph)
    const again = open()
    expect(again.notice).toBeNull()
    expect(again.list()).toEqual(store.list())
    const [saved] = again.list()
    expect(saved).toMatchObject({ name: 'Stolen ether', notes: 'Funds left on 1 Jan.', graph })
    expect(saved!.addresses.map((a) => [a.address, a.network, a.label])).toEqual([
      [A, 'alpha', 'Victim'],
      [B, 'beta', 'Mixer deposit'],
      [A, 'beta', ''],
    ])
  })

  it('refuses the same address twice on one network, and keeps the file unchanged', async () => {
    const store = open()
    const c = await store.create('x', { address: addr(A), network: 'alpha' })
    const before = readFileSync(join(dir, 'cases', `${c.id}.json`), 'utf8')
    await expect(store.addAddress(c.id, { address: addr(A), network: 'alpha' })).rejects.toThrow(/in the case already/)
    expect(readFileSync(join(dir, 'cases', `${c.id}.json`), 'utf8')).toBe(before)
  })

  it('exports a case as one file that imports back equal, as a new case beside the first', async () => {
    const store = open()
    const c = await store.create('Case', { address: addr(A), network: 'alpha' })
    await store.setGraph(c.id, graph)
    const file = store.export(c.id)
    expect(file.mime).toBe('application/json')
    const imported = await store.import(file.text)
    expect(imported.id).not.toBe(c.id)
    expect(imported.name).toBe('Case (2)')
    const { id: _a, name: _b, log: importedLog, ...rest } = imported
    const { id: _c, name: _d, log, ...orig } = store.list().find((x) => x.id === c.id)!
    expect(rest).toEqual(orig)
    // The log comes along as it was, with the import logged after it.
    expect(importedLog.slice(0, -1)).toEqual(log)
    expect(open().list()).toHaveLength(2)
  })

  it('refuses a damaged import with the place of the first problem, and imports nothing', async () => {
    const store = open()
    const c = await store.create('Case', { address: addr(A), network: 'alpha' })
    const doc = JSON.parse(store.export(c.id).text)
    doc.case.addresses[0].address = '0x1234'
    await expect(store.import(JSON.stringify(doc))).rejects.toThrow(
      /case\.addresses\.0\.address: expected a lowercase address/,
    )
    doc.case.addresses[0].address = A
    doc.case.graph.hopLimit = 99
    await expect(store.import(JSON.stringify(doc))).rejects.toThrow(/case\.graph\.hopLimit/)
    await expect(store.import('{ not json')).rejects.toThrow(/not valid JSON/)
    await expect(store.import('{"format":"x"}')).rejects.toThrow(/not a Chainscope case file/)
    await expect(store.import(JSON.stringify({ ...doc, version: 3 }))).rejects.toThrow(/newer Chainscope/)
    expect(store.list()).toHaveLength(1)
  })

  it('restores the backup when the file is damaged and keeps the damaged file aside', async () => {
    const store = open()
    const c = await store.create('One')
    await store.rename(c.id, 'Two')
    writeFileSync(join(dir, 'cases', `${c.id}.json`), '{"version":1,"case":{"id":')
    const again = open()
    expect(again.notice).toMatch(/restored from its backup/)
    expect(again.list().map((x) => x.name)).toEqual(['One'])
    expect(readdirSync(join(dir, 'cases')).some((f) => f.startsWith(`${c.id}.json.damaged-`))).toBe(true)
  })

  it('leaves a file from a newer Chainscope untouched and refuses to change it', async () => {
    const newer = JSON.stringify({ version: 2, cases: [], more: true })
    writeFileSync(join(dir, 'cases.json'), newer)
    const store = open()
    expect(store.notice).toMatch(/newer version/)
    await expect(store.create('x')).rejects.toThrow(/newer version/)
    expect(readFileSync(join(dir, 'cases.json'), 'utf8')).toBe(newer)
  })

  it('moves the cases of an earlier version’s single cases.json into one file each, keeping that file aside', async () => {
    const store = open()
    const one = await store.create('One', { address: addr(A), network: 'alpha' })
    const two = await store.create('Two')
    // As version 1 saved them: no paths, no log, a graph of version 1 without positions.
    const v1 = [one, two].map(({ paths: _p, log: _l, graph: { positions: _x, ...g }, ...c }) => ({
      ...c,
      graph: { ...g, version: 1 },
    }))
    const single = JSON.stringify({ version: 1, cases: v1 })
    rmSync(join(dir, 'cases'), { recursive: true })
    writeFileSync(join(dir, 'cases.json'), single)
    const moved = open()
    expect(moved.notice).toBeNull()
    const byId = (cs: { id: string }[]) => cs.toSorted((a, b) => a.id.localeCompare(b.id))
    expect(byId(moved.list())).toEqual(byId([one, two].map((c) => ({ ...c, log: [] }))))
    expect(readdirSync(join(dir, 'cases')).sort()).toEqual([`${one.id}.json`, `${two.id}.json`].sort())
    expect(readFileSync(join(dir, 'cases.json.moved-to-cases-folder'), 'utf8')).toBe(single)
    await moved.rename(two.id, 'Three')
    expect(
      open()
        .list()
        .map((c) => c.name)
        .sort(),
    ).toEqual(['One', 'Three'])
  })

  it('writes only the case that changed: a case of many addresses is not rewritten when another changes', async () => {
    const store = open()
    const big = await store.create('Big')
    for (let i = 0; i < 20; i++)
      await store.addAddress(big.id, { address: addr(`0x${(i + 1).toString(16).padStart(40, '0')}`), network: 'alpha' })
    const small = await store.create('Small')
    const bigFile = readFileSync(join(dir, 'cases', `${big.id}.json`), 'utf8')
    await store.setNotes(small.id, 'only this one')
    expect(readFileSync(join(dir, 'cases', `${big.id}.json`), 'utf8')).toBe(bigFile)
    expect(
      open()
        .list()
        .find((c) => c.id === small.id)!.notes,
    ).toBe('only this one')
  })

  it('starts a case with the default graph state for the flow graph to fill', async () => {
    expect((await open().create('x')).graph).toEqual(emptyGraphState())
  })
})

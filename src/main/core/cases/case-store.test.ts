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
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cases-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))
const open = (): CaseStore => new CaseStore({ dataDir: dir, now: () => now })
const graph: GraphState = {
  version: 1,
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
}

describe('CaseStore', () => {
  it('keeps a case with addresses on both networks, notes, labels and graph state across a restart', () => {
    const store = open()
    const c = store.create('Stolen ether', { address: addr(A.toUpperCase().replace('0X', '0x')), network: 'alpha' })
    store.addAddress(c.id, { address: addr(B), network: 'beta', label: 'Mixer deposit', note: 'first hop' })
    store.addAddress(c.id, { address: addr(A), network: 'beta' })
    store.updateAddress(c.id, { address: addr(A), network: 'alpha' }, { label: 'Victim' })
    store.setNotes(c.id, 'Funds left on 1 Jan.')
    store.setGraph(c.id, graph)
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

  it('refuses the same address twice on one network, and keeps the file unchanged', () => {
    const store = open()
    const c = store.create('x', { address: addr(A), network: 'alpha' })
    const before = readFileSync(join(dir, 'cases.json'), 'utf8')
    expect(() => store.addAddress(c.id, { address: addr(A), network: 'alpha' })).toThrow(/in the case already/)
    expect(readFileSync(join(dir, 'cases.json'), 'utf8')).toBe(before)
  })

  it('exports a case as one file that imports back equal, as a new case beside the first', () => {
    const store = open()
    const c = store.create('Case', { address: addr(A), network: 'alpha' })
    store.setGraph(c.id, graph)
    const file = store.export(c.id)
    expect(file.mime).toBe('application/json')
    const imported = store.import(file.text)
    expect(imported.id).not.toBe(c.id)
    expect(imported.name).toBe('Case (2)')
    const { id: _a, name: _b, ...rest } = imported
    const { id: _c, name: _d, ...orig } = store.list()[0]!
    expect(rest).toEqual(orig)
    expect(open().list()).toHaveLength(2)
  })

  it('refuses a damaged import with the place of the first problem, and imports nothing', () => {
    const store = open()
    const c = store.create('Case', { address: addr(A), network: 'alpha' })
    const doc = JSON.parse(store.export(c.id).text)
    doc.case.addresses[0].address = '0x1234'
    expect(() => store.import(JSON.stringify(doc))).toThrow(/case\.addresses\.0\.address: expected a lowercase address/)
    doc.case.addresses[0].address = A
    doc.case.graph.hopLimit = 99
    expect(() => store.import(JSON.stringify(doc))).toThrow(/case\.graph\.hopLimit/)
    expect(() => store.import('{ not json')).toThrow(/not valid JSON/)
    expect(() => store.import('{"format":"x"}')).toThrow(/not a Chainscope case file/)
    expect(() => store.import(JSON.stringify({ ...doc, version: 2 }))).toThrow(/newer Chainscope/)
    expect(store.list()).toHaveLength(1)
  })

  it('restores the backup when the file is damaged and keeps the damaged file aside', () => {
    const store = open()
    const c = store.create('One')
    store.rename(c.id, 'Two')
    writeFileSync(join(dir, 'cases.json'), '{"version":1,"cases":[{"id":')
    const again = open()
    expect(again.notice).toMatch(/restored from its backup/)
    expect(again.list().map((x) => x.name)).toEqual(['One'])
    expect(readdirSync(dir).some((f) => f.startsWith('cases.json.damaged-'))).toBe(true)
  })

  it('leaves a file from a newer Chainscope untouched and refuses to change it', () => {
    const newer = JSON.stringify({ version: 2, cases: [], more: true })
    writeFileSync(join(dir, 'cases.json'), newer)
    const store = open()
    expect(store.notice).toMatch(/newer version/)
    expect(() => store.create('x')).toThrow(/newer version/)
    expect(readFileSync(join(dir, 'cases.json'), 'utf8')).toBe(newer)
  })

  it('starts a case with the default graph state for the flow graph to fill', () => {
    expect(open().create('x').graph).toEqual(emptyGraphState())
  })
})

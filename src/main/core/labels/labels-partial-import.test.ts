import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { LabelsStore } from './labels-store'
import { addr } from '../testing/address'

const A = '0x52908400098527886e0f7030069857d2e4169ee7'
const B = '0x8617e340b3d01fa5f11f306f4090fd50e238070d'
const C = '0xde709f2102306220921060314715629080e2fb77'
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'labels-partial-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))
const open = (): LabelsStore => new LabelsStore({ dataDir: dir, now: () => Date.UTC(2030, 0, 2) })
const FILE = `address,label\n${A},Alice\n0x1234,Broken\n${B},Bob\n${C},Carol\n`

describe('label import with one bad row: nothing without the choice, then the good rows', () => {
  it('previews the bad row with its row, column and why beside the good rows', () => {
    const p = open().preview(FILE, 'alpha')
    expect(p.bad).toEqual([
      {
        row: 3,
        column: 'column 1 ("address")',
        why: 'An address has 40 hex characters after 0x; this one has 4',
      },
    ])
    expect(p.added.map((a) => a.label)).toEqual(['Alice', 'Bob', 'Carol'])
  })

  it('refuses the file without the choice, naming the bad row, and writes nothing', async () => {
    const store = open()
    await expect(store.import(FILE, 'alpha', [])).rejects.toThrow(
      /^Nothing was imported: row 3, column 1 \("address"\): .*Apply the good rows or fix the file\.$/,
    )
    expect(store.list()).toEqual([])
    expect(existsSync(join(dir, 'labels.json'))).toBe(false)
  })

  it('applies the good rows when the user chose so, and never overwrites a changed label unpicked', async () => {
    const store = open()
    await store.set(addr(A), 'alpha', { label: 'Alice (mine)', note: '' }, null)
    expect(await store.import(FILE, 'alpha', [], { skipBad: true })).toEqual({ added: 2, replaced: 0, kept: 1 })
    expect(
      open()
        .list()
        .map((l) => [l.address, l.label])
        .sort(),
    ).toEqual([
      [A, 'Alice (mine)'],
      [B, 'Bob'],
      [C, 'Carol'],
    ])
  })
})

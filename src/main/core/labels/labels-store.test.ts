import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AddressLabel } from '@shared/domain/address-label'
import { LabelsStore } from './labels-store'

const A = '0x52908400098527886e0f7030069857d2e4169ee7'
const B = '0x8617e340b3d01fa5f11f306f4090fd50e238070d'
const now = Date.UTC(2030, 0, 2)
let dir: string
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'labels-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))
const open = (onChange?: (l: AddressLabel[]) => void): LabelsStore =>
  new LabelsStore({ dataDir: dir, now: () => now, onChange })

describe('LabelsStore import', () => {
  it('previews additions and changes, writes nothing until applied, and replaces only what was picked', async () => {
    const store = open()
    expect(await store.import(`address,label\n${A},Alice\n${B},Bob\n`, 'alpha', [])).toEqual({
      added: 2,
      replaced: 0,
      kept: 0,
    })
    const file = join(dir, 'labels.json')
    const before = readFileSync(file, 'utf8')
    const next = `address,label,note\n${A},Alice 2,hot\n${B},Bob,\n0x${'1'.repeat(40)},Carol,\n`
    const preview = store.preview(next, 'alpha')
    expect(preview.added).toEqual([{ address: `0x${'1'.repeat(40)}`, network: 'alpha', label: 'Carol', note: '' }])
    expect(preview.changed).toEqual([
      { address: A, network: 'alpha', old: { label: 'Alice', note: '' }, next: { label: 'Alice 2', note: 'hot' } },
    ])
    expect(preview.same).toBe(1)
    expect(readFileSync(file, 'utf8')).toBe(before)

    // Not picked: Alice keeps her old label.
    expect(await store.import(next, 'alpha', [])).toEqual({ added: 1, replaced: 0, kept: 1 })
    expect(
      open()
        .list()
        .find((l) => l.address === A)?.label,
    ).toBe('Alice')
    // Picked: replaced, and the change survives a restart.
    expect(await store.import(next, 'alpha', [`alpha|${A}`])).toEqual({ added: 0, replaced: 1, kept: 0 })
    expect(
      open()
        .list()
        .find((l) => l.address === A),
    ).toMatchObject({ label: 'Alice 2', note: 'hot' })
  })

  it('leaves the note as it is when the file has no note column', async () => {
    const store = open()
    await store.import(`address,label,note\n${A},Alice,hot wallet\n`, 'alpha', [])
    const preview = store.preview(`address,label\n${A},Alice\n${B},Bob\n`, 'alpha')
    expect(preview.same).toBe(1)
    expect(preview.changed).toEqual([])
    await store.import(`${A},Alice 2\n`, 'alpha', [`alpha|${A}`])
    expect(store.list()[0]).toMatchObject({ label: 'Alice 2', note: 'hot wallet' })
  })

  it('keeps labels per network: the same address on another network is an addition', async () => {
    const store = open()
    await store.import(`${A},Alice\n`, 'alpha', [])
    expect(store.preview(`${A},Alice\n`, 'beta').added).toHaveLength(1)
  })

  it('applies nothing from a malformed file, even rows before the bad one', async () => {
    const seen: AddressLabel[][] = []
    const store = open((l) => seen.push(l))
    await expect(store.import(`address,label\n${A},Alice\n${B},"x\n`, 'alpha', [])).rejects.toThrow(/row 3/)
    await expect(store.import(`address,label\n${A},Alice\nnot-an-address,x\n`, 'alpha', [])).rejects.toThrow(
      /row 3, column 1/,
    )
    expect(store.list()).toEqual([])
    expect(seen).toEqual([])
    expect(existsSync(join(dir, 'labels.json'))).toBe(false)
  })

  it('exports the documented layout that imports back equal', async () => {
    const store = open()
    await store.import(`address,network,label,note\n${A},beta,Alice,"a, b"\n${B},alpha,Bob,\n`, 'alpha', [])
    const file = store.export()
    expect(file.mime).toBe('text/csv')
    rmSync(join(dir, 'labels.json'))
    rmSync(join(dir, 'labels.json.bak'), { force: true })
    const again = open()
    await again.import(file.text, 'gamma', [])
    const strip = (l: AddressLabel[]) =>
      l.map(({ updatedAt: _, ...rest }) => rest).sort((x, y) => x.address.localeCompare(y.address))
    expect(strip(again.list())).toEqual(strip(store.list()))
  })
})

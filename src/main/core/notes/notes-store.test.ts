import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Note } from '@shared/bridge/contract'
import { notesFromImport, withNotes } from './notes-io'
import { NotesStore } from './notes-store'

const A = '0x52908400098527886e0f7030069857d2e4169ee7'
const H = `0x${'ab'.repeat(32)}`
let dir: string
const now = Date.UTC(2030, 0, 2)
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'notes-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))
const open = (onChange?: (n: Note[]) => void): NotesStore => new NotesStore({ dataDir: dir, now: () => now, onChange })

describe('NotesStore', () => {
  it('sets, replaces and removes notes, and every change survives a restart', async () => {
    const seen: Note[][] = []
    const store = open((n) => seen.push(n))
    await store.set({
      kind: 'address',
      network: 'alpha',
      key: A.toUpperCase().replace('0X', '0x'),
      text: 'exchange hot wallet',
    })
    await store.set({ kind: 'tx', network: 'alpha', key: H, text: 'paid invoice 42' })
    await store.set({ kind: 'tx', network: 'alpha', key: H, text: 'paid invoice 43' })
    expect(open().list()).toEqual([
      {
        kind: 'address',
        network: 'alpha',
        key: A,
        text: 'exchange hot wallet',
        updatedAt: new Date(now).toISOString(),
      },
      { kind: 'tx', network: 'alpha', key: H, text: 'paid invoice 43', updatedAt: new Date(now).toISOString() },
    ])
    expect(await store.set({ kind: 'tx', network: 'alpha', key: H, text: '  ' })).toBeNull()
    expect(
      open()
        .list()
        .map((n) => n.kind),
    ).toEqual(['address'])
    expect(seen).toHaveLength(4)
  })

  it('keeps the last good file as a backup and restores it when the file is damaged', async () => {
    const store = open()
    await store.set({ kind: 'address', network: 'alpha', key: A, text: 'one' })
    await store.set({ kind: 'address', network: 'beta', key: A, text: 'two' })
    writeFileSync(join(dir, 'notes.json'), '{"version":1,"notes":[{"kind":"add')
    const reopened = open()
    expect(reopened.notice).toMatch(/damaged .* restored from its backup/)
    expect(reopened.list().map((n) => n.text)).toEqual(['one'])
  })

  it('leaves a file from a newer version untouched', async () => {
    writeFileSync(join(dir, 'notes.json'), '{"version":9,"notes":[]}')
    const store = open()
    expect(store.notice).toMatch(/newer version/)
    await expect(store.set({ kind: 'address', network: 'alpha', key: A, text: 'x' })).rejects.toThrow(
      expect.objectContaining({ kind: 'conflict' }),
    )
    expect(readFileSync(join(dir, 'notes.json'), 'utf8')).toBe('{"version":9,"notes":[]}')
  })

  it('merges imported notes: the newer of two versions of a note wins', async () => {
    const store = open()
    await store.set({ kind: 'address', network: 'alpha', key: A, text: 'mine, newer' })
    const older: Note = {
      kind: 'address',
      network: 'alpha',
      key: A,
      text: 'theirs, older',
      updatedAt: new Date(now - 1000).toISOString(),
    }
    const other: Note = {
      kind: 'tx',
      network: 'beta',
      key: H,
      text: 'theirs',
      updatedAt: new Date(now - 1000).toISOString(),
    }
    expect(await store.merge([older, other])).toBe(1)
    expect(
      store
        .list()
        .map((n) => n.text)
        .sort(),
    ).toEqual(['mine, newer', 'theirs'])
  })
})

describe('notes in the JSON export and import', () => {
  const note: Note = { kind: 'tx', network: 'alpha', key: H, text: 'refund', updatedAt: '2030-01-01T00:00:00.000Z' }
  it('adds notes to a JSON export and reads them back; CSV stays a table', async () => {
    const file = withNotes(
      {
        filename: 'x.json',
        mime: 'application/json',
        text: JSON.stringify({ format: 'chainscope-watchlists', lists: [] }),
      },
      [note],
    )
    expect(JSON.parse(file.text)).toMatchObject({ format: 'chainscope-watchlists', notes: [note] })
    expect(notesFromImport(file.text)).toEqual({ notes: [note], notesOnly: true })
    const csv = { filename: 'x.csv', mime: 'text/csv' as const, text: 'list,address\n' }
    expect(withNotes(csv, [note])).toBe(csv)
  })

  it('names every bad note and imports nothing', async () => {
    const text = JSON.stringify({
      lists: [{ name: 'W', entries: [{ address: A, network: 'alpha' }] }],
      notes: [note, { ...note, key: 'nope' }, { ...note, kind: 'block' }],
    })
    expect(() => notesFromImport(text)).toThrow(
      expect.objectContaining({
        kind: 'invalid-input',
        message: expect.stringMatching(/2 notes have problems \(first: note 2: key/),
      }),
    )
  })

  it('ignores files without notes (older exports)', async () => {
    expect(notesFromImport(JSON.stringify({ lists: [] }))).toEqual({ notes: [], notesOnly: false })
    expect(notesFromImport('[')).toEqual({ notes: [], notesOnly: false })
  })
})

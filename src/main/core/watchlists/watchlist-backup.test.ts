import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NotesStore } from '../notes/notes-store'
import { addr } from '../testing/address'
import { WatchlistBackup } from './watchlist-backup'
import { WatchlistStore } from './watchlist-store'

/** The watchlists' files with the notes riding along, on real stores in two data folders. */
const A = addr('0x52908400098527886e0f7030069857d2e4169ee7')
const H = `0x${'ab'.repeat(32)}`
const dirs: string[] = []
beforeEach(async () => {
  dirs.push(mkdtempSync(join(tmpdir(), 'backup-a-')), mkdtempSync(join(tmpdir(), 'backup-b-')))
})
afterEach(async () => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function folder(dir: string) {
  const watchlists = new WatchlistStore({ dataDir: dir, now: () => Date.UTC(2030, 0, 2) })
  const notes = new NotesStore({ dataDir: dir, now: () => Date.UTC(2030, 0, 2) })
  return { watchlists, notes, backup: new WatchlistBackup(watchlists, notes) }
}

/** A folder with one list of one entry and two notes. */
async function filled(dir: string) {
  const f = folder(dir)
  const list = await f.watchlists.create('Desk')
  await f.watchlists.addEntry(list.id, { address: A, network: 'alpha', label: 'T', note: '', tags: [] })
  await f.notes.set({ kind: 'tx', network: 'alpha', key: H, text: 'refund' })
  await f.notes.set({ kind: 'address', network: 'alpha', key: A, text: 'treasury' })
  return { ...f, listId: list.id }
}

describe('WatchlistBackup', () => {
  it('moves every list and every note to another folder in the whole-backup file', async () => {
    const from = await filled(dirs[0]!)
    const file = from.backup.export('json')
    const to = folder(dirs[1]!)
    expect(await to.backup.import('json', file.text)).toEqual({ lists: 1, entries: 1, notes: 2 })
    expect(to.watchlists.list()[0]).toMatchObject({ name: 'Desk', entries: [{ address: A, label: 'T' }] })
    expect(
      to.notes
        .list()
        .map((n) => n.text)
        .sort(),
    ).toEqual(['refund', 'treasury'])
  })

  it("keeps notes out of one list's file and out of CSV", async () => {
    const from = await filled(dirs[0]!)
    expect(JSON.parse(from.backup.export('json', from.listId).text)).not.toHaveProperty('notes')
    expect(from.backup.export('csv').text).not.toContain('refund')
    const to = folder(dirs[1]!)
    expect(await to.backup.import('json', from.backup.export('json', from.listId).text)).toEqual({
      lists: 1,
      entries: 1,
    })
    expect(to.notes.list()).toEqual([])
  })

  it('imports a notes-only file as notes, adding no empty list', async () => {
    const from = await filled(dirs[0]!)
    const notesOnly = JSON.stringify({ notes: from.notes.list() })
    const to = folder(dirs[1]!)
    expect(await to.backup.import('json', notesOnly)).toEqual({ lists: 0, entries: 0, notes: 2 })
    expect(to.watchlists.list()).toEqual([])
  })

  it('imports nothing, lists or notes, when one note is bad', async () => {
    const from = await filled(dirs[0]!)
    const doc = JSON.parse(from.backup.export('json').text) as { notes: unknown[] }
    doc.notes.push({ kind: 'block', network: 'alpha', key: H, text: 'x', updatedAt: '2030-01-01T00:00:00.000Z' })
    const to = folder(dirs[1]!)
    await expect(to.backup.import('json', JSON.stringify(doc))).rejects.toThrow(
      expect.objectContaining({ kind: 'invalid-input', message: expect.stringMatching(/Nothing was imported/) }),
    )
    expect(to.watchlists.list()).toEqual([])
    expect(to.notes.list()).toEqual([])
  })
})

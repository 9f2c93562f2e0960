import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { hangingFs } from '../testing/hanging-fs'
import { SAVE_DEADLINE_MS, VersionedFile } from './versioned-file'

/** A file kind of its own: a version and up to three short words. */
const schema = z.object({ version: z.literal(1), words: z.array(z.string().max(5)).max(3) })
type Words = z.infer<typeof schema>

let dir: string
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'versioned-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const file = (): VersionedFile<Words> =>
  new VersionedFile<Words>({
    path: join(dir, 'words.json'),
    version: 1,
    label: 'words',
    migrate: (raw) => schema.parse(raw),
    empty: () => ({ version: 1, words: [] }),
    now: () => Date.UTC(2030, 0, 1),
  })
const read = (name: string): unknown => JSON.parse(readFileSync(join(dir, name), 'utf8'))

describe('VersionedFile', () => {
  it('refuses, before writing anything, content its own load would reject', async () => {
    const f = file()
    f.load()
    await f.update(() => ({ version: 1, words: ['a'] }))
    await f.update(() => ({ version: 1, words: ['a', 'b'] }))
    await expect(f.update(() => ({ version: 1, words: ['a', 'b', 'c', 'd'] }))).rejects.toMatchObject(
      expect.objectContaining({
        kind: 'invalid-input',
        message: expect.stringMatching(/Nothing was saved: the words would not load again \(words: .*3/),
      }),
    )
    await expect(f.update(() => ({ version: 1, words: ['toolong'] }))).rejects.toMatchObject(
      expect.objectContaining({ kind: 'invalid-input' }),
    )
    expect(read('words.json')).toEqual({ version: 1, words: ['a', 'b'] })
    expect(read('words.json.bak')).toEqual({ version: 1, words: ['a'] })
    expect(file().load()).toEqual({ data: { version: 1, words: ['a', 'b'] }, notice: null, readOnly: false })
  })

  it('keeps a backup that does not load either: moved aside, never overwritten by later saves, and named in the notice', async () => {
    writeFileSync(join(dir, 'words.json'), 'garbage')
    writeFileSync(join(dir, 'words.json.bak'), '{"version":1,"words":"not a list"}')
    const f = file()
    const loaded = f.load()
    expect(loaded.data.words).toEqual([])
    expect(loaded.notice).toMatch(/damaged \(it is not valid JSON\) and no usable backup exists \(the backup: words:/)
    expect(loaded.notice).toMatch(/kept as words\.json\.damaged-2030-01-01T00-00-00-000Z\./)
    expect(loaded.notice).toMatch(/unusable backup was kept as words\.json\.bak\.damaged-2030-01-01T00-00-00-000Z\./)
    await f.update(() => ({ version: 1, words: ['x'] }))
    await f.update(() => ({ version: 1, words: ['y'] }))
    expect(readFileSync(join(dir, 'words.json.bak.damaged-2030-01-01T00-00-00-000Z'), 'utf8')).toBe(
      '{"version":1,"words":"not a list"}',
    )
    expect(readFileSync(join(dir, 'words.json.damaged-2030-01-01T00-00-00-000Z'), 'utf8')).toBe('garbage')
    expect(read('words.json.bak')).toEqual({ version: 1, words: ['x'] })
  })

  it('says so when the file is missing and its backup cannot be used, and keeps that backup', async () => {
    writeFileSync(join(dir, 'words.json.bak'), '{"version":1')
    const loaded = file().load()
    expect(loaded.notice).toMatch(/missing and its backup could not be used \(the backup: it is not valid JSON\)/)
    expect(readdirSync(dir).filter((n) => n.startsWith('words.json.bak.damaged-'))).toHaveLength(1)
  })

  it('restores a good backup over a damaged file; the restored text becomes the next backup', async () => {
    const f = file()
    f.load()
    await f.update(() => ({ version: 1, words: ['one'] }))
    await f.update(() => ({ version: 1, words: ['two'] }))
    writeFileSync(join(dir, 'words.json'), '{"version":1,"words":[1]}')
    const again = file()
    expect(again.load()).toMatchObject({
      data: { words: ['one'] },
      notice: expect.stringMatching(/restored from its backup/),
    })
    await again.update(() => ({ version: 1, words: ['three'] }))
    expect(read('words.json.bak')).toEqual({ version: 1, words: ['one'] })
  })

  it('names a write the disk refuses in plain words (a folder where the file must go: real, even for root)', async () => {
    const f = file()
    f.load()
    mkdirSync(join(dir, 'words.json', 'blocker'), { recursive: true })
    await expect(f.update(() => ({ version: 1, words: ['a'] }))).rejects.toMatchObject(
      expect.objectContaining({
        name: 'DiskWriteError',
        message: 'The words could not be saved: a folder stands where a data file should be.',
      }),
    )
    expect(existsSync(join(dir, 'words.json', 'blocker'))).toBe(true)
  })

  it('changes memory only once the save is accepted: a refused change leaves data and file as they were', async () => {
    const f = file()
    f.load()
    await f.update(() => ({ version: 1, words: ['a'] }))
    const before = f.data
    await expect(f.update(() => ({ version: 1, words: ['a', 'b', 'c', 'd'] }))).rejects.toMatchObject({
      kind: 'invalid-input',
    })
    await expect(
      f.update(() => {
        throw new Error('the change itself failed')
      }),
    ).rejects.toThrow('the change itself failed')
    expect(f.data).toBe(before)
    expect(read('words.json')).toEqual({ version: 1, words: ['a'] })
    // Updates run in turn, each from the one before it.
    await Promise.all([
      f.update((d) => ({ ...d, words: [...d.words, 'b'] })),
      f.update((d) => ({ ...d, words: [...d.words, 'c'] })),
    ])
    expect(f.data.words).toEqual(['a', 'b', 'c'])
    expect(read('words.json')).toEqual({ version: 1, words: ['a', 'b', 'c'] })
  })
})

describe('VersionedFile on a disk that does not answer', () => {
  afterEach(() => vi.useRealTimers())

  it('refuses the save at its deadline with a clear reason; memory and file stay as before, and the next save works', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const disk = hangingFs()
    const f = new VersionedFile<Words>({
      path: join(dir, 'words.json'),
      version: 1,
      label: 'words',
      migrate: (raw) => schema.parse(raw),
      empty: () => ({ version: 1, words: [] }),
      fs: disk.fs,
    })
    f.load()
    await f.update(() => ({ version: 1, words: ['a'] }))
    disk.state.hang = true
    const saving = f.update(() => ({ version: 1, words: ['b'] }))
    const outcome = saving.then(
      () => 'saved',
      (error: unknown) => error,
    )
    await disk.reached()
    await vi.advanceTimersByTimeAsync(SAVE_DEADLINE_MS)
    expect(await outcome).toMatchObject({
      name: 'DiskWriteError',
      message: `The words could not be saved: the disk did not answer in ${SAVE_DEADLINE_MS / 1000} s; nothing was saved.`,
    })
    expect(f.data.words).toEqual(['a'])
    expect(read('words.json')).toEqual({ version: 1, words: ['a'] })
    // The disk answers again: the write given up never lands, and the next save goes through.
    disk.release()
    await f.settled()
    expect(read('words.json')).toEqual({ version: 1, words: ['a'] })
    await f.update((d) => ({ ...d, words: [...d.words, 'c'] }))
    expect(f.data.words).toEqual(['a', 'c'])
    expect(read('words.json')).toEqual({ version: 1, words: ['a', 'c'] })
  })
})

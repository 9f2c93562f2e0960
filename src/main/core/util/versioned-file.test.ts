import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { VersionedFile } from './versioned-file'

/** A file kind of its own: a version and up to three short words. */
const schema = z.object({ version: z.literal(1), words: z.array(z.string().max(5)).max(3) })
type Words = z.infer<typeof schema>

let dir: string
beforeEach(() => {
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
  it('refuses, before writing anything, content its own load would reject', () => {
    const f = file()
    f.load()
    f.save({ version: 1, words: ['a'] })
    f.save({ version: 1, words: ['a', 'b'] })
    expect(() => f.save({ version: 1, words: ['a', 'b', 'c', 'd'] })).toThrow(
      expect.objectContaining({
        kind: 'invalid-input',
        message: expect.stringMatching(/Nothing was saved: the words would not load again \(words: .*3/),
      }),
    )
    expect(() => f.save({ version: 1, words: ['toolong'] })).toThrow(expect.objectContaining({ kind: 'invalid-input' }))
    expect(read('words.json')).toEqual({ version: 1, words: ['a', 'b'] })
    expect(read('words.json.bak')).toEqual({ version: 1, words: ['a'] })
    expect(file().load()).toEqual({ data: { version: 1, words: ['a', 'b'] }, notice: null, readOnly: false })
  })

  it('keeps a backup that does not load either: moved aside, never overwritten by later saves, and named in the notice', () => {
    writeFileSync(join(dir, 'words.json'), 'garbage')
    writeFileSync(join(dir, 'words.json.bak'), '{"version":1,"words":"not a list"}')
    const f = file()
    const loaded = f.load()
    expect(loaded.data.words).toEqual([])
    expect(loaded.notice).toMatch(/damaged \(it is not valid JSON\) and no usable backup exists \(the backup: words:/)
    expect(loaded.notice).toMatch(/kept as words\.json\.damaged-2030-01-01T00-00-00-000Z\./)
    expect(loaded.notice).toMatch(/unusable backup was kept as words\.json\.bak\.damaged-2030-01-01T00-00-00-000Z\./)
    f.save({ version: 1, words: ['x'] })
    f.save({ version: 1, words: ['y'] })
    expect(readFileSync(join(dir, 'words.json.bak.damaged-2030-01-01T00-00-00-000Z'), 'utf8')).toBe(
      '{"version":1,"words":"not a list"}',
    )
    expect(readFileSync(join(dir, 'words.json.damaged-2030-01-01T00-00-00-000Z'), 'utf8')).toBe('garbage')
    expect(read('words.json.bak')).toEqual({ version: 1, words: ['x'] })
  })

  it('says so when the file is missing and its backup cannot be used, and keeps that backup', () => {
    writeFileSync(join(dir, 'words.json.bak'), '{"version":1')
    const loaded = file().load()
    expect(loaded.notice).toMatch(/missing and its backup could not be used \(the backup: it is not valid JSON\)/)
    expect(readdirSync(dir).filter((n) => n.startsWith('words.json.bak.damaged-'))).toHaveLength(1)
  })

  it('restores a good backup over a damaged file; the restored text becomes the next backup', () => {
    const f = file()
    f.load()
    f.save({ version: 1, words: ['one'] })
    f.save({ version: 1, words: ['two'] })
    writeFileSync(join(dir, 'words.json'), '{"version":1,"words":[1]}')
    const again = file()
    expect(again.load()).toMatchObject({
      data: { words: ['one'] },
      notice: expect.stringMatching(/restored from its backup/),
    })
    again.save({ version: 1, words: ['three'] })
    expect(read('words.json.bak')).toEqual({ version: 1, words: ['one'] })
  })

  it('names a write the disk refuses in plain words (a folder where the file must go: real, even for root)', () => {
    const f = file()
    f.load()
    mkdirSync(join(dir, 'words.json', 'blocker'), { recursive: true })
    expect(() => f.save({ version: 1, words: ['a'] })).toThrow(
      expect.objectContaining({
        name: 'DiskWriteError',
        message: 'The words could not be saved: a folder stands where a data file should be.',
      }),
    )
    expect(existsSync(join(dir, 'words.json', 'blocker'))).toBe(true)
  })
})

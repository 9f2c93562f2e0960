import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FinalAnswers } from './final-answers'

let dir = ''
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'finals-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const files = (): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))

describe('final entity answers on disk', () => {
  it('reads back what was saved, per profile', async () => {
    const finals = new FinalAnswers(dir)
    await finals.put('p', 'p|alpha|receipt|0x1', { hash: '0x1', block: 7 }, 1234)
    expect(await new FinalAnswers(dir).get('p', 'p|alpha|receipt|0x1')).toEqual({
      value: { hash: '0x1', block: 7 },
      fetchedAt: 1234,
    })
    expect(await finals.get('q', 'p|alpha|receipt|0x1')).toBeNull()
    expect(await finals.get('p', 'p|alpha|receipt|0x2')).toBeNull()
  })

  it('ignores a damaged or foreign file instead of showing it', async () => {
    const finals = new FinalAnswers(dir)
    await finals.put('p', 'k', { a: 1 }, 1)
    const [file] = files()
    for (const text of [
      '{"version":1,"key":"k","fetchedAt":1,"value":{"a"',
      '{"version":2,"key":"k","fetchedAt":1,"value":{}}',
      '{"version":1,"key":"other","fetchedAt":1,"value":{}}',
      '{"version":1,"key":"k","fetchedAt":"x","value":{}}',
    ]) {
      writeFileSync(file!, text)
      expect(await finals.get('p', 'k')).toBeNull()
    }
  })

  it('forgets a profile whole', async () => {
    const finals = new FinalAnswers(dir)
    await finals.put('p', 'k', { a: 1 }, 1)
    await finals.put('q', 'k', { a: 2 }, 1)
    await finals.forget('p')
    expect(await finals.get('p', 'k')).toBeNull()
    expect(await finals.get('q', 'k')).toEqual({ value: { a: 2 }, fetchedAt: 1 })
  })
})

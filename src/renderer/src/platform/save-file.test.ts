import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FILE_CHECK_PART_CHARS } from '@shared/bridge/file-check'
import { answerFileChecks } from '../testing/file-checks'
import { setupTestApp, type TestApp } from '../testing/mount'
import { checkedByMain, saveText } from './save-file'

describe('saving a file', () => {
  let t: TestApp
  let offered: string[]
  beforeEach(() => {
    t = setupTestApp()
    offered = []
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test')
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      offered.push(this.download)
    })
  })
  afterEach(() => vi.restoreAllMocks())

  it('sends a large file to main in ordered parts that rejoin to it, a surrogate pair never split', async () => {
    const files = answerFileChecks(t.bridge)
    // An emoji straddles the first cut: it must stay whole in one part.
    const text = `${'a'.repeat(FILE_CHECK_PART_CHARS - 1)}😀${'b'.repeat(FILE_CHECK_PART_CHARS + 5)}`
    expect(await checkedByMain('big.csv', text)).toBeNull()
    const calls = t.bridge.callsOf('files.check') as { part: number; text: string; last: boolean }[]
    expect(calls.map((c) => [c.part, c.last])).toEqual([
      [0, false],
      [1, false],
      [2, true],
    ])
    expect(calls.every((c) => c.text.length <= FILE_CHECK_PART_CHARS)).toBe(true)
    expect(calls.some((c) => /^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(c.text))).toBe(false)
    expect(files).toEqual([text])
  })

  it('sends an empty file as one last part', async () => {
    answerFileChecks(t.bridge)
    expect(await checkedByMain('empty.csv', '')).toBeNull()
    expect(t.bridge.callsOf('files.check')).toEqual([
      expect.objectContaining({ part: 0, text: '', last: true, name: 'empty.csv' }),
    ])
  })

  it('offers the download only after main checked it, and nothing when main refuses', async () => {
    answerFileChecks(t.bridge, 'SECRET')
    expect(await saveText('ok.csv', 'text/csv', 'a,b')).toBeNull()
    expect(offered).toEqual(['ok.csv'])
    const refused = await saveText('bad.csv', 'text/csv', 'a,SECRET')
    expect(refused).toMatchObject({ kind: 'invalid-input', message: 'bad.csv was not saved: it holds the key.' })
    expect(offered).toEqual(['ok.csv'])
  })

  it('offers nothing when main cannot be asked', async () => {
    // No handler: the call fails as an unwired build's does.
    expect(await saveText('a.csv', 'text/csv', 'a')).toMatchObject({ kind: 'internal' })
    expect(offered).toEqual([])
  })
})

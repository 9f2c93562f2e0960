import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SnapshotStore } from './snapshot-store'
import { Redactor } from '../util/logger'
import { decodeCursor, encodeCursor } from '../service/cursor'
import { transaction } from '../testing/service-fixtures'

/** What reaches disk and the renderer, and what comes back from it. */
let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'edges-store-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const A = '0x00000000000000000000000000000000000000aa'

function allFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
}

describe('snapshots and cursors at the edges', () => {
  it('removing profile "work" keeps the snapshots of "work-2" (item 10)', async () => {
    const store = new SnapshotStore({ root: dir })
    const page = { fetchedAt: 1, items: [transaction(1, 99, 1)], nextCursor: null, unreadable: [] }
    await store.writePage({ profileId: 'work', network: 'alpha', address: A, cursor: null }, page)
    await store.writePage({ profileId: 'work-2', network: 'alpha', address: A, cursor: null }, page)
    await store.removeProfile('work')
    expect(await store.readPage('work', 'alpha', A, null)).toBeNull()
    expect(await store.readPage('work-2', 'alpha', A, null)).toEqual(page)
  })

  it('redacts a key the service put in an object key of a snapshot (item 7)', async () => {
    const key = 'sk_live_objectkey_4321'
    const redactor = new Redactor()
    redactor.add(key)
    const store = new SnapshotStore({ root: dir, redact: redactor })
    const tx = transaction(1, 99, 1)
    await store.writePage(
      { profileId: 'p', network: 'alpha', address: A, cursor: null },
      {
        fetchedAt: 1,
        items: [{ ...tx, echoed_by_service: { [key]: 'x', nested: { [`a ${key} b`]: 1 } } }],
        nextCursor: null,
      },
    )
    await store.flush()
    for (const file of allFiles(dir)) expect(readFileSync(file, 'utf8')).not.toContain(key.slice(0, 12))
  })

  it('drops any next_page_params field whose name or value holds the key (item 7)', () => {
    const key = 'sk_live_cursorkey_8765'
    const redactor = new Redactor()
    redactor.add(key)
    const cursor = encodeCursor(
      { block_number: 7, token: `abc${key}`, [key]: 1, echo: encodeURIComponent(key) },
      redactor,
    )
    expect(Buffer.from(cursor, 'base64url').toString('utf8')).not.toContain(key.slice(0, 12))
    expect(decodeCursor(cursor)).toEqual({ block_number: 7 })
  })

  it('round-trips any next_page_params the encoder accepts (item 9)', () => {
    const wide: Record<string, string | number | boolean> = {}
    for (let i = 0; i < 30; i++) wide[`field_${i}`] = i
    wide['inserted-at'] = '2024-05-01T10:00:00Z'
    wide['page.token'] = 'x'.repeat(500)
    wide['ünïcode name'] = true
    wide['API_KEY_HINT'] = 'not the key slot'
    expect(decodeCursor(encodeCursor(wide))).toEqual(wide)
  })
})

describe('Redactor encodings (item 8)', () => {
  const key = 'abc/def+ghi=jkl/mno'
  const redactor = new Redactor()
  redactor.add(key)
  const forms = [
    key,
    JSON.stringify(key).slice(1, -1).replaceAll('/', '\\/'),
    key.replaceAll('/', '\\u002f'),
    key.replaceAll('/', '\\u002F'),
    key.replaceAll('/', '&#x2F;'),
    key.replaceAll('/', '&#47;'),
    encodeURIComponent(key),
    encodeURIComponent(key).toLowerCase(),
    Buffer.from(key).toString('base64'),
    Buffer.from(key).toString('base64url'),
  ]
  it.each(forms)('finds and redacts %s', (form) => {
    const text = `{"message":"bad key ${form} given"}`
    expect(redactor.contains(text)).toBe(true)
    expect(redactor.redact(text)).not.toContain(form)
    expect(redactor.redact(text)).toContain('…/mno')
  })
})

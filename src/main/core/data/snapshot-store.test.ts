import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { balanceItem, transaction } from '../testing/service-fixtures'
import { Redactor } from '../util/logger'
import { SnapshotStore } from './snapshot-store'
import { stringsAndKeys } from '../testing/secrets'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'snapshots-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const A = '0x00000000000000000000000000000000000000aa'
/** A snapshot file's JSON text, decompressed. */
const rawText = (path: string): string => brotliDecompressSync(readFileSync(path)).toString('utf8')
const page = (n: number) => ({
  fetchedAt: n,
  items: [transaction(n, 100 - n, 1)],
  unreadable: [],
  nextCursor: `c${n + 1}`,
})

describe('SnapshotStore', () => {
  it('keeps balances and pages per profile, network and address, with fetchedAt', async () => {
    const store = new SnapshotStore({ root: dir })
    await store.writeBalances('p', 'alpha', A, { fetchedAt: 123, items: [balanceItem('7')] })
    await store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(1))
    await store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: 'c2' }, page(2))
    const fresh = new SnapshotStore({ root: dir })
    expect(await fresh.readBalances('p', 'alpha', A.toUpperCase().replace('0X', '0x'))).toEqual({
      fetchedAt: 123,
      items: [balanceItem('7')],
      unreadable: [],
    })
    expect(await fresh.readPage('p', 'alpha', A, null)).toEqual(page(1))
    expect(await fresh.readPage('p', 'alpha', A, 'c2')).toEqual(page(2))
    expect(await fresh.readPage('p', 'beta', A, null)).toBeNull()
    expect(await fresh.readPage('q', 'alpha', A, null)).toBeNull()
  })

  it('never writes a registered key to disk, even one the service echoed into a body', async () => {
    const redactor = new Redactor()
    const key = 'sk_live_"echoed\\key_9876'
    redactor.add(key)
    const store = new SnapshotStore({ root: dir, redact: redactor })
    const item = balanceItem('7')
    await store.writeBalances('p', 'alpha', A, {
      fetchedAt: 1,
      items: [
        {
          ...item,
          token: { ...item.token, icon_url: `https://icons.example/x.png?api_key=${encodeURIComponent(key)}` },
        },
      ],
    })
    const tx = transaction(1, 99, 1)
    // As a value and as a field name (a service can echo the key as either).
    await store.writePage(
      { profileId: 'p', network: 'alpha', address: A, cursor: null },
      {
        fetchedAt: 1,
        items: [{ ...tx, method: key, [key]: 'echoed' }],
        nextCursor: null,
      },
    )
    const files = readdirSync(join(dir, 'p', 'alpha', A)).map((f) => rawText(join(dir, 'p', 'alpha', A, f)))
    expect(files).toHaveLength(2)
    for (const text of files) {
      expect(text).not.toContain(encodeURIComponent(key))
      expect(text).not.toContain(JSON.stringify(key).slice(1, -1))
      expect(text).toContain('…9876')
    }
    expect((await store.readPage('p', 'alpha', A, null))?.items[0]?.method).toBe('…9876')
  })

  it('never writes a key that a string holds already escaped (a JSON text in a field), with no plain copy beside it', async () => {
    const redactor = new Redactor()
    const key = 'sk_live_"echoed\\key/9876'
    redactor.add(key)
    const store = new SnapshotStore({ root: dir, redact: redactor })
    const tx = { ...transaction(1, 99, 1), tx_tag: JSON.stringify({ error: `bad key ${key}` }) }
    expect(redactor.contains(tx.tx_tag)).toBe(true)
    await store.writePage(
      { profileId: 'p', network: 'alpha', address: A, cursor: null },
      { fetchedAt: 1, items: [tx], nextCursor: null },
    )
    const text = rawText(join(dir, 'p', 'alpha', A, `${SnapshotStore.pageName(null)}.br`))
    expect(stringsAndKeys(JSON.parse(text)).filter((t) => redactor.contains(t))).toEqual([])
    expect(text).toContain('…9876')
  })

  it('keeps at most maxPagesPerAddress pages, dropping the oldest written', async () => {
    const store = new SnapshotStore({ root: dir, maxPagesPerAddress: 3 })
    await store.writeBalances('p', 'alpha', A, { fetchedAt: 1, items: [] })
    for (let i = 0; i < 5; i++)
      await store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: i === 0 ? null : `c${i}` }, page(i))
    const kept = await Promise.all([null, 'c1', 'c2', 'c3', 'c4'].map((c) => store.readPage('p', 'alpha', A, c)))
    expect(kept.map((p) => p?.fetchedAt ?? null)).toEqual([null, null, 2, 3, 4])
    expect(await store.readBalances('p', 'alpha', A)).not.toBeNull()
  })

  it('stays within maxBytes in all, dropping the least recently written files first, across a restart', async () => {
    const addressOf = (i: number) => `0x${i.toString(16).padStart(40, '0')}`
    const probe = new SnapshotStore({ root: join(dir, 'probe') })
    await probe.writePage({ profileId: 'p', network: 'alpha', address: addressOf(0), cursor: null }, page(0))
    const budget = probe.totalBytes * 10
    rmSync(join(dir, 'probe'), { recursive: true })
    const store = new SnapshotStore({ root: dir, maxBytes: budget })
    for (let i = 0; i < 15; i++)
      await store.writePage({ profileId: 'p', network: 'alpha', address: addressOf(i), cursor: null }, page(i))
    // Rewriting an old page makes it the newest: it outlives pages written after it first.
    await store.writePage({ profileId: 'p', network: 'alpha', address: addressOf(0), cursor: null }, page(0))
    for (let i = 15; i < 30; i++)
      await store.writePage({ profileId: 'p', network: 'alpha', address: addressOf(i), cursor: null }, page(i))
    expect(store.totalBytes).toBeLessThanOrEqual(budget)
    const keptNow = async (s: SnapshotStore) => {
      const kept: number[] = []
      for (let i = 0; i < 33; i++) if (await s.readPage('p', 'alpha', addressOf(i), null)) kept.push(i)
      return kept
    }
    const kept = await keptNow(store)
    // A suffix of the write order (0 rewritten after 14), from the newest back.
    const order = [...Array.from({ length: 14 }, (_, i) => i + 1), 0, ...Array.from({ length: 15 }, (_, i) => i + 15)]
    expect(kept.length).toBeGreaterThan(5)
    expect(kept.sort((a, b) => a - b)).toEqual(order.slice(order.length - kept.length).sort((a, b) => a - b))
    // After a restart the order comes from the files' times: the next eviction takes the oldest left.
    const restarted = new SnapshotStore({ root: dir, maxBytes: budget })
    for (let i = 30; i < 33; i++)
      await restarted.writePage({ profileId: 'p', network: 'alpha', address: addressOf(i), cursor: null }, page(i))
    const after = await keptNow(restarted)
    const survivors = [...order, 30, 31, 32].filter((i) => after.includes(i))
    expect(survivors).toEqual([...order, 30, 31, 32].slice(-survivors.length))
  })

  it('treats a damaged snapshot as missing and removes it', async () => {
    const store = new SnapshotStore({ root: dir })
    await store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(1))
    const file = join(dir, 'p', 'alpha', A, `${SnapshotStore.pageName(null)}.br`)
    writeFileSync(file, brotliCompressSync('{"version":1,"fetchedAt":1,"items":[{"nope":true}],"nextCursor":null}'))
    const fresh = new SnapshotStore({ root: dir })
    expect(await fresh.readPage('p', 'alpha', A, null)).toBeNull()
    await fresh.flush()
    expect(existsSync(file)).toBe(false)
  })

  it('forgets a removed profile', async () => {
    const store = new SnapshotStore({ root: dir })
    await store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(1))
    await store.writePage({ profileId: 'keep', network: 'alpha', address: A, cursor: null }, page(1))
    await store.removeProfile('p')
    expect(readdirSync(dir)).toEqual(['keep'])
    expect(await store.readPage('p', 'alpha', A, null)).toBeNull()
  })
})

describe('SnapshotStore deferred writes', () => {
  /** A redactor that records every string it is asked about: it sees a snapshot as it is serialised. */
  function watchingRedactor() {
    const seen: string[] = []
    return {
      seen,
      contains: (text: string) => (seen.push(text), false),
      redact: (text: string) => text,
    }
  }

  /** Whether the redactor was shown `value`, alone or in a JSON text. */
  const saw = (seen: string[], value: string): boolean =>
    seen.some((text) => text === value || text.includes(JSON.stringify(value)))

  it("serialises a write after the caller's turn, and flush waits until it is on disk", async () => {
    const redact = watchingRedactor()
    const store = new SnapshotStore({ root: dir, redact })
    const written = store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(1))
    // The caller's own turn (its answer still being sent) and its microtasks: nothing serialised.
    for (let i = 0; i < 20; i++) await Promise.resolve()
    expect(redact.seen).toEqual([])
    await store.flush()
    expect(saw(redact.seen, 'c2')).toBe(true)
    expect(existsSync(join(dir, 'p', 'alpha', A, `${SnapshotStore.pageName(null)}.br`))).toBe(true)
    await written
    // What landed survives a restart.
    expect(await new SnapshotStore({ root: dir }).readPage('p', 'alpha', A, null)).toEqual(page(1))
  })

  it('merges writes of one file that wait their turn: the newest wins, the older is never serialised', async () => {
    const redact = watchingRedactor()
    const store = new SnapshotStore({ root: dir, redact })
    const first = store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(1))
    const second = store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(2))
    const other = store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: 'c9' }, page(9))
    await Promise.all([first, second, other])
    expect(saw(redact.seen, 'c2')).toBe(false)
    expect(saw(redact.seen, 'c3')).toBe(true)
    const fresh = new SnapshotStore({ root: dir })
    expect(await fresh.readPage('p', 'alpha', A, null)).toEqual(page(2))
    expect(await fresh.readPage('p', 'alpha', A, 'c9')).toEqual(page(9))
    expect(readdirSync(join(dir, 'p', 'alpha', A)).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('checks a snapshot that holds no key once, as its JSON text, not string by string', async () => {
    const redact = watchingRedactor()
    const store = new SnapshotStore({ root: dir, redact })
    await store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(1))
    expect(redact.seen).toEqual([JSON.stringify({ version: 1, ...page(1) })])
  })

  it('a write queued while another of the same file is being written lands after it', async () => {
    const store = new SnapshotStore({ root: dir })
    const first = store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(1))
    // Let the first write start (it leaves the waiting list on its own turn), then queue another.
    await new Promise<void>((resolve) => setImmediate(resolve))
    const second = store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(2))
    await Promise.all([first, second])
    expect(await new SnapshotStore({ root: dir }).readPage('p', 'alpha', A, null)).toEqual(page(2))
  })
})

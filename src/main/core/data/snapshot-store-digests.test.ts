import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { brotliDecompressSync } from 'node:zlib'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Transaction } from '@shared/domain/service-schemas'
import { transaction } from '../testing/service-fixtures'
import { Redactor } from '../util/logger'
import { SnapshotStore, type SnapshotEntry } from './snapshot-store'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'snapshot-digests-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const A = '0x00000000000000000000000000000000000000aa'
/** A digest of a page: its transactions' hashes and for whom it was made. */
const digester = {
  of: (items: readonly Transaction[], address: string) => ({ address, hashes: items.map((t) => t.hash) }),
}
const digestSchema = z.object({ address: z.string(), hashes: z.array(z.string()) })
const page = (n: number) => ({ fetchedAt: n, items: [transaction(n, 100 - n, 1)], nextCursor: `c${n + 1}` })
const digestsDir = () => join(dir, 'p', 'alpha', A, 'digests')

async function pagesOf(store: SnapshotStore): Promise<SnapshotEntry[]> {
  return (await store.catalogue('p')).filter((e) => e.kind === 'page')
}

describe('SnapshotStore: the digest kept beside each page', () => {
  it('is made as the page is written and read back for that version of the page only', async () => {
    const store = new SnapshotStore({ root: dir, digester })
    await store.writePage(
      { profileId: 'p', network: 'alpha', address: A.toUpperCase().replace('0X', '0x'), cursor: null },
      page(1),
    )
    await store.flush()
    const restarted = new SnapshotStore({ root: dir })
    const [entry] = await pagesOf(restarted)
    // The catalogue lists the page, not its digest.
    expect((await restarted.catalogue('p')).map((e) => e.kind)).toEqual(['page'])
    expect(await restarted.readDigest(entry!, digestSchema)).toEqual({ address: A, hashes: [page(1).items[0]!.hash] })
    expect(await restarted.readDigest({ ...entry!, stamp: entry!.stamp + 1 }, digestSchema)).toBeNull()
    expect(await restarted.readDigest({ ...entry!, size: entry!.size + 1 }, digestSchema)).toBeNull()
  })

  it('is written for a page written without one, unless the page changed meanwhile', async () => {
    const plain = new SnapshotStore({ root: dir })
    await plain.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(1))
    await plain.flush()
    const [entry] = await pagesOf(plain)
    expect(await plain.readDigest(entry!, digestSchema)).toBeNull()
    await plain.writeDigest(entry!, () => ({ address: A, hashes: ['kept'] }))
    expect(await new SnapshotStore({ root: dir }).readDigest(entry!, digestSchema)).toEqual({
      address: A,
      hashes: ['kept'],
    })

    await plain.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(2))
    await plain.writeDigest(entry!, () => ({ address: A, hashes: ['stale'] }))
    const [now] = await pagesOf(plain)
    expect(now!.stamp === entry!.stamp && now!.size === entry!.size).toBe(false)
    expect(await plain.readDigest(now!, digestSchema)).toBeNull()
    // The rewrite took the old version's digest with it, and the late one was not written.
    expect(readdirSync(digestsDir())).toEqual([])
  })

  it('one that does not hold what its reader expects is removed and said in the log', async () => {
    const warn = vi.fn()
    const store = new SnapshotStore({ root: dir, digester, log: { info: () => {}, warn, error: () => {} } })
    await store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(1))
    await store.flush()
    const [entry] = await pagesOf(store)
    expect(await store.readDigest(entry!, z.object({ other: z.number() }))).toBeNull()
    await store.flush()
    expect(readdirSync(digestsDir())).toEqual([])
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('digest'))
    // The page itself is untouched.
    expect(await store.readPage('p', 'alpha', A, null)).toMatchObject({ items: page(1).items })
  })

  it('never holds a registered key the page held', async () => {
    const redactor = new Redactor()
    const key = 'sk_live_"echoed\\key_9876'
    redactor.add(key)
    const methods = { of: (items: readonly Transaction[]) => ({ methods: items.map((t) => t.method) }) }
    const store = new SnapshotStore({ root: dir, digester: methods, redact: redactor })
    await store.writePage(
      { profileId: 'p', network: 'alpha', address: A, cursor: null },
      {
        fetchedAt: 1,
        items: [{ ...transaction(1, 99, 1), method: key }],
        nextCursor: null,
      },
    )
    await store.flush()
    const text = brotliDecompressSync(readFileSync(join(digestsDir(), 'tx-first.json.br'))).toString('utf8')
    expect(text).not.toContain(JSON.stringify(key).slice(1, -1))
    expect(text).toContain('…9876')
  })

  it('is left out, said in the log, when its maker fails: the page is kept', async () => {
    const warn = vi.fn()
    const failing = {
      of: () => {
        throw new Error('cannot digest this')
      },
    }
    const store = new SnapshotStore({ root: dir, digester: failing, log: { info: () => {}, warn, error: () => {} } })
    await store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(1))
    await store.flush()
    expect(await store.readPage('p', 'alpha', A, null)).toMatchObject({ items: page(1).items })
    expect(existsSync(digestsDir())).toBe(false)
    expect(warn).toHaveBeenCalledWith('snapshot digest not made: cannot digest this')
  })

  it('goes when its page is rewritten without one, so it never stands beside another version of its page', async () => {
    const store = new SnapshotStore({ root: dir, digester })
    await store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(1))
    await store.flush()
    expect(readdirSync(digestsDir())).toEqual(['tx-first.json.br'])
    // The next version's digest cannot be made: the page is kept, the old digest goes. (The version
    // check alone is not enough where file times are coarse, e.g. 1 s on HFS+, 2 s on FAT.)
    const failing = new SnapshotStore({
      root: dir,
      digester: {
        of: () => {
          throw new Error('cannot digest this')
        },
      },
      log: { info: () => {}, warn: () => {}, error: () => {} },
    })
    await failing.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(2))
    await failing.flush()
    expect(readdirSync(digestsDir())).toEqual([])
    expect(await failing.readPage('p', 'alpha', A, null)).toMatchObject({ items: page(2).items })
    const onDisk = readdirSync(join(dir, 'p', 'alpha', A)).filter((n) => n.startsWith('tx-'))
    expect(failing.totalBytes).toBe(onDisk.reduce((sum, n) => sum + statSync(join(dir, 'p', 'alpha', A, n)).size, 0))
  })

  it('goes with its page past the per-address cap, and counts in the byte budget', async () => {
    const store = new SnapshotStore({ root: dir, digester, maxPagesPerAddress: 2 })
    for (const n of [1, 2, 3])
      await store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: n === 1 ? null : `c${n}` }, page(n))
    await store.flush()
    const pages = readdirSync(join(dir, 'p', 'alpha', A)).filter((n) => n.startsWith('tx-'))
    expect(pages).toHaveLength(2)
    expect(pages).not.toContain('tx-first.json.br')
    expect(readdirSync(digestsDir()).sort()).toEqual(pages.sort())
    const onDisk = [...pages.map((n) => join(dir, 'p', 'alpha', A, n)), ...pages.map((n) => join(digestsDir(), n))]
    expect(store.totalBytes).toBe(onDisk.reduce((sum, f) => sum + statSync(f).size, 0))
  })

  it('goes with its page when the total passes the budget', async () => {
    const probe = new SnapshotStore({ root: join(dir, 'probe'), digester })
    await probe.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: null }, page(1))
    await probe.flush()
    // Room for about two pages and their digests.
    const store = new SnapshotStore({ root: dir, digester, maxBytes: Math.floor(probe.totalBytes * 2.5) })
    rmSync(join(dir, 'probe'), { recursive: true })
    for (const n of [1, 2, 3, 4])
      await store.writePage({ profileId: 'p', network: 'alpha', address: A, cursor: n === 1 ? null : `c${n}` }, page(n))
    await store.flush()
    const pages = readdirSync(join(dir, 'p', 'alpha', A)).filter((n) => n.startsWith('tx-'))
    expect(pages.length).toBeLessThan(4)
    expect(existsSync(join(digestsDir(), 'tx-first.json.br'))).toBe(false)
    expect(readdirSync(digestsDir()).every((n) => pages.includes(n))).toBe(true)
  })
})

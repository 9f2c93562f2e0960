import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { makeTx, ME, OTHER, party } from '@shared/testing/service-samples'
import { SnapshotStore } from '../data/snapshot-store'
import { CachedSearch, docOf, type SearchDoc } from './cached-search'
import { loadSearchIndex, saveSearchIndex } from './search-index-file'
import { SearchService } from './search-service'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'search-index-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const file = () => join(dir, 'index.gz')
const ids = (docs: SearchDoc[]) => docs.map((d) => d.id).sort()

const WORDS = ['transfer', 'approve', 'USDC', 'Wrapped Ether', 'Uniswap Router', 'cold storage', 'desk']
const hexWord = fc.stringMatching(/^[0-9a-f]{4,12}$/).map((h) => `0x${h}`)
const docArb = fc.record({
  n: fc.nat(40),
  hex: fc.array(hexWord, { maxLength: 3 }),
  text: fc.subarray(WORDS),
  network: fc.constantFrom('alpha', 'beta'),
})
/** Odd numbers carry a hash, as transactions do (the file writes it once). */
const toDoc = (d: { n: number; hex: string[]; text: string[]; network: string }): SearchDoc => {
  const hash = d.n % 2 ? `0x${d.n.toString(16).padStart(8, 'a')}` : null
  return {
    id: hash ? `tx|${d.network}|${hash}` : `tx|${d.network}|${d.n}`,
    kind: 'transaction',
    network: d.network,
    address: null,
    hash,
    title: `T${d.n}`,
    detail: '',
    hex: hash ? [hash, ...d.hex] : d.hex,
    text: d.text,
  }
}

describe('saved search index', () => {
  it('a saved and loaded index answers every query as the index it was saved from (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('s1', 's2', 's3', 's4'), fc.array(docArb, { maxLength: 8 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.subarray(['s1', 's2', 's3', 's4']),
        async (writes, removed) => {
          const original = new CachedSearch()
          // Items change as sources are rewritten and dropped, as pages are.
          for (const [source, docs] of writes) original.setSource(source, docs.map(toDoc))
          for (const source of removed) original.removeSource(source)
          await saveSearchIndex(file(), { profile: 'p', files: [], digests: {}, state: original.toState() })
          const loaded = await loadSearchIndex(file(), 'p')
          if (!loaded.ok) throw new Error(loaded.why)
          expect(loaded.search.size).toBe(original.size)
          for (const held of original.toState().docs) expect(loaded.search.get(held[0])).toEqual(docOf(held))
          const queries = new Set<string>(['usdc', 'wrapped ether', 'router', 'cold', 'transfer desk'])
          for (const [, docs] of writes)
            for (const d of docs)
              for (const h of toDoc(d).hex) {
                queries.add(h)
                queries.add(h.slice(0, 6))
                queries.add(`${h.slice(0, 6)} transfer`)
              }
          for (const q of queries)
            expect(ids(loaded.search.search(q, 10_000)), q).toEqual(ids(original.search(q, 10_000)))
          for (const source of ['s1', 's2', 's3', 's4']) {
            // Sources come back too: dropping one drops the same items from both.
            loaded.search.removeSource(source)
            original.removeSource(source)
            expect(loaded.search.size).toBe(original.size)
          }
        },
      ),
      { numRuns: 60 },
    )
  })

  describe('with the snapshot store', () => {
    const swap = makeTx(7, { method: 'swapExactTokensForTokens', to: party(OTHER, { name: 'Uniswap Router' }) })
    const plain = makeTx(1)
    const setup = (
      indexDir: string | undefined,
      log: string[] = [],
      snapshots = new SnapshotStore({ root: join(dir, 'snapshots') }),
    ) =>
      new SearchService({
        snapshots,
        profileId: () => 'p1',
        watchlists: () => [],
        notes: () => [],
        indexDir,
        log: { info: (m) => log.push(m), warn: (m) => log.push(m), error: (m) => log.push(m) },
      })
    const indexDir = () => join(dir, 'search-index')
    const indexFile = () => join(indexDir(), readdirSync(indexDir())[0]!)
    const hashes = async (search: SearchService, q: string) =>
      (await search.query(q, 50)).hits.map((h) => h.hash).sort()

    async function savedIndex(): Promise<void> {
      const store = new SnapshotStore({ root: join(dir, 'snapshots') })
      await store.writePage(
        { profileId: 'p1', network: 'alpha', address: ME, cursor: null },
        { fetchedAt: 1, items: [plain, swap], nextCursor: 'c2' },
      )
      await store.writePage(
        { profileId: 'p1', network: 'beta', address: OTHER, cursor: null },
        { fetchedAt: 1, items: [makeTx(9)], nextCursor: null },
      )
      const first = setup(indexDir())
      await first.sync()
      await first.close()
    }

    it('after a restart, answers as an index built again from the snapshots, without reading them', async () => {
      await savedIndex()
      const log: string[] = []
      const store = new SnapshotStore({ root: join(dir, 'snapshots') })
      const reads = vi.spyOn(store, 'readEntry')
      const restarted = setup(indexDir(), log, store)
      expect((await restarted.query('nothing-cached-is-called-so', 5)).cachedItems).toBe(3)
      expect(reads).not.toHaveBeenCalled()
      const rebuilt = setup(undefined)
      for (const q of [swap.hash.slice(0, 10), 'uniswap', 'swapexact', ME.slice(0, 8), OTHER, makeTx(9).hash])
        expect(await hashes(restarted, q), q).toEqual(await hashes(rebuilt, q))
      expect((await restarted.query('uniswap', 5)).hits[0]).toMatchObject({ hash: swap.hash, tx: { hash: swap.hash } })
      expect(log).toEqual([])
    })

    it('re-reads a snapshot rewritten while it was closed, and forgets one removed', async () => {
      await savedIndex()
      const store = new SnapshotStore({ root: join(dir, 'snapshots') })
      const later = makeTx(11, { method: 'deposit' })
      await store.removeProfile('p1')
      await store.writePage(
        { profileId: 'p1', network: 'alpha', address: ME, cursor: null },
        { fetchedAt: 2, items: [later], nextCursor: null },
      )
      const restarted = setup(indexDir())
      expect(await hashes(restarted, 'deposit')).toEqual([later.hash])
      expect(await hashes(restarted, 'swapexact')).toEqual([])
      expect(await hashes(restarted, makeTx(9).hash)).toEqual([])
    })

    it.each([
      ['truncated', (bytes: Buffer) => bytes.subarray(0, bytes.length - 40)],
      [
        'overwritten',
        (bytes: Buffer) => Buffer.concat([bytes.subarray(0, 100), Buffer.alloc(200, 7), bytes.subarray(300)]),
      ],
      ['not gzip', () => Buffer.from('{"format":"chainscope-search-index"}')],
      [
        'stale (other search words)',
        (bytes: Buffer) => gzipSync(gunzipSync(bytes).toString('utf8').replace('"words":1', '"words":0')),
      ],
      [
        'an item of another shape',
        (bytes: Buffer) => gzipSync(gunzipSync(bytes).toString('utf8').replace('"transaction"', '"wallet"')),
      ],
      [
        'a line missing',
        (bytes: Buffer) => gzipSync(gunzipSync(bytes).toString('utf8').split('\n').slice(0, -1).join('\n')),
      ],
    ])('a saved index that is %s is not used: the index is built again and answers', async (_what, spoil) => {
      await savedIndex()
      writeFileSync(indexFile(), spoil(readFileSync(indexFile())))
      const log: string[] = []
      const restarted = setup(indexDir(), log)
      expect(await hashes(restarted, 'uniswap')).toEqual([swap.hash])
      expect(await hashes(restarted, makeTx(9).hash)).toEqual([makeTx(9).hash])
      expect(log).toEqual([expect.stringMatching(/^search index not used \(.+\); building it again$/)])
      // Built again, then saved again whole.
      await restarted.close()
      const again = await loadSearchIndex(indexFile(), 'p1')
      expect(again.ok).toBe(true)
    })

    it('is saved a quiet moment after the last change, once', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      try {
        const store = new SnapshotStore({ root: join(dir, 'snapshots') })
        const search = new SearchService({
          snapshots: store,
          profileId: () => 'p1',
          watchlists: () => [],
          notes: () => [],
          indexDir: indexDir(),
          saveDelayMs: 1000,
        })
        await store.writePage(
          { profileId: 'p1', network: 'alpha', address: ME, cursor: null },
          { fetchedAt: 1, items: [plain], nextCursor: null },
        )
        await search.sync()
        vi.advanceTimersByTime(600)
        await store.writePage(
          { profileId: 'p1', network: 'alpha', address: ME, cursor: 'c2' },
          { fetchedAt: 1, items: [swap], nextCursor: null },
        )
        await search.sync()
        vi.advanceTimersByTime(600)
        expect(existsSync(indexDir())).toBe(false)
        vi.advanceTimersByTime(400)
        // Hang guards, not timing checks: the save is real disk work, slower than waitFor's 1 s default when busy.
        const guard = { timeout: 20_000, interval: 50 }
        await vi.waitFor(() => expect(existsSync(indexDir()) && readdirSync(indexDir()).length).toBe(1), guard)
        await vi.waitFor(async () => expect((await loadSearchIndex(indexFile(), 'p1')).ok).toBe(true), guard)
        const loaded = await loadSearchIndex(indexFile(), 'p1')
        expect(loaded.ok && loaded.search.size).toBe(2)
        await search.close()
      } finally {
        vi.useRealTimers()
      }
    })

    it('closing during a first build does not wait for it: what was indexed is saved, the rest read at the next start', async () => {
      const store = new SnapshotStore({ root: join(dir, 'snapshots') })
      for (let i = 0; i < 20; i++)
        await store.writePage(
          { profileId: 'p1', network: 'alpha', address: ME, cursor: i ? `c${i}` : null },
          {
            fetchedAt: 1,
            items: [makeTx(100 + i)],
            nextCursor: null,
          },
        )
      const first = setup(indexDir())
      const building = first.sync()
      for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve))
      await first.close()
      await building
      // Saved only if something was indexed before the close; never the whole build.
      const saved = existsSync(indexDir()) ? await loadSearchIndex(indexFile(), 'p1') : null
      expect(saved?.ok ? saved.search.size : 0).toBeLessThan(20)
      const restarted = setup(indexDir())
      expect((await restarted.query(makeTx(119).hash, 5)).cachedItems).toBe(20)
      expect(await hashes(restarted, makeTx(119).hash)).toEqual([makeTx(119).hash])
    })

    it('a save removes the temp file a killed save left behind', async () => {
      await savedIndex()
      // A process id that cannot be running (above the kernel's maximum).
      const abandoned = join(indexDir(), '.x.index.gz.99999999.1.tmp')
      writeFileSync(abandoned, 'half an index')
      await saveSearchIndex(join(indexDir(), 'other.index.gz'), {
        profile: 'p1',
        files: [],
        digests: {},
        state: { docs: [] },
      })
      expect(existsSync(abandoned)).toBe(false)
    })

    it('is not used for another profile', async () => {
      await savedIndex()
      expect(await loadSearchIndex(indexFile(), 'p2')).toEqual({ ok: false, why: 'written for another profile' })
    })
  })
})

import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { Note, SearchAnswer, SearchHit, Watchlist } from '@shared/bridge/contract'
import type { AddressLabel } from '@shared/domain/address-label'
import type { Transaction } from '@shared/domain/service-schemas'
import { errorMessage } from '@shared/guards'
import { MemoryCache } from '../data/memory-cache'
import type { PageSnapshot, SnapshotEntry, SnapshotStore } from '../data/snapshot-store'
import type { Logger } from '../util/logger'
import { CachedSearch, type SearchDoc } from './cached-search'
import { balancesDoc, labelDocs, noteDocs, transactionDoc, watchlistDocs } from './search-docs'
import { loadSearchIndex, saveSearchIndex } from './search-index-file'

export interface SearchServiceOptions {
  snapshots: SnapshotStore
  /** The active profile's id (snapshots are per profile); null before a first run. */
  profileId: () => string | null
  watchlists: () => Watchlist[]
  notes: () => Note[]
  /** The user's address labels (labels.json); none in tests that do not need them. */
  labels?: () => AddressLabel[]
  /** Where the index is kept between runs (one file per profile); none: built at each start. */
  indexDir?: string
  /** Quiet time after a change before the index is saved. Default 10 s. */
  saveDelayMs?: number
  log?: Logger
}

const digest = (docs: readonly SearchDoc[]): string =>
  createHash('sha256').update(JSON.stringify(docs)).digest('hex').slice(0, 32)

/**
 * Keeps the cached search in step with what main holds and answers `search.query`. It is
 * brought up to date lazily, at each query: snapshot files whose stamp or size changed are
 * re-read, watchlists, notes and labels re-indexed after a change (`markDirty`). It never makes a
 * request. The index is saved (search-index-file.ts) a quiet moment after it changed and at
 * `close`; the first sync of a profile loads it instead of reading every snapshot again, and
 * then re-reads only the files that changed since it was saved.
 */
export class SearchService {
  readonly #o: SearchServiceOptions
  #index = new CachedSearch()
  /** Snapshot path → the catalogue entry last indexed (its stamp and size). */
  #entries = new Map<string, SnapshotEntry>()
  /** Digest of what the watchlists and notes sources hold now. */
  #digests: Record<string, string> = {}
  #profile: string | null = null
  /** The profile whose saved index the next sync loads (set when the profile changes). */
  #toLoad: string | null = null
  #dirty = { watchlists: true, notes: true, labels: true }
  #syncing: Promise<void> | null = null
  #unsaved = false
  #timer: ReturnType<typeof setTimeout> | null = null
  #saving: Promise<void> = Promise.resolve()
  /**
   * The last pages read for hits: the hits of one query often share pages, and the next
   * keystroke's query mostly the same hits. Keyed by path, stamp and size, so never stale.
   */
  readonly #pages = new MemoryCache<PageSnapshot | null>(16)
  #closing = false
  /** After `close`: nothing more is saved (the data folder may be gone). */
  #closed = false

  constructor(options: SearchServiceOptions) {
    this.#o = options
  }

  markDirty(what: 'watchlists' | 'notes' | 'labels'): void {
    this.#dirty[what] = true
  }

  async query(query: string, limit: number): Promise<SearchAnswer> {
    await this.sync()
    const docs = query.trim() ? this.#index.search(query, limit) : []
    const hits: SearchHit[] = []
    for (const doc of docs) hits.push(await this.#hit(doc))
    return { hits, cachedItems: this.#index.size }
  }

  /** One sync at a time; queries arriving meanwhile share it. Call it at start to have the index ready. */
  sync(): Promise<void> {
    this.#syncing ??= this.#sync().finally(() => (this.#syncing = null))
    return this.#syncing
  }

  /** Saves what is not saved yet and stops the save timer. */
  async close(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer)
    this.#timer = null
    // A sync under way (a first build reads every snapshot: seconds) stops after the file it
    // is reading, so quitting does not wait for it; what it indexed so far is saved, and the
    // files it did not reach are read at the next start.
    this.#closing = true
    await this.#syncing
    if (this.#unsaved) this.#save()
    await this.#saving
    this.#closed = true
  }

  #file(profile: string): string | null {
    const dir = this.#o.indexDir
    return dir ? join(dir, `${createHash('sha256').update(profile).digest('hex').slice(0, 24)}.index.gz`) : null
  }

  async #sync(): Promise<void> {
    const profile = this.#o.profileId()
    if (profile !== this.#profile) {
      if (this.#unsaved) this.#save()
      this.#index = new CachedSearch()
      this.#entries = new Map()
      this.#digests = {}
      this.#profile = profile
      this.#dirty = { watchlists: true, notes: true, labels: true }
      this.#toLoad = profile
    }
    const toLoad = this.#toLoad
    this.#toLoad = null
    // The saved index is read while the snapshot folder is listed: both wait on the disk.
    const [catalogue] = await Promise.all([
      profile ? this.#o.snapshots.catalogue(profile) : [],
      toLoad ? this.#load(toLoad) : null,
    ])
    if (this.#o.profileId() !== profile) return
    this.#source('watchlists', () => watchlistDocs(this.#o.watchlists()))
    this.#source('notes', () => noteDocs(this.#o.notes()))
    this.#source('labels', () => labelDocs(this.#o.labels?.() ?? []))
    if (!profile) return
    const present = new Set<string>()
    for (const entry of catalogue) {
      if (this.#closing) return
      present.add(entry.path)
      const known = this.#entries.get(entry.path)
      if (known && known.stamp === entry.stamp && known.size === entry.size) continue
      const data = await this.#o.snapshots.readEntry(entry)
      this.#entries.set(entry.path, entry)
      this.#changed()
      if (!data) {
        this.#index.removeSource(entry.path)
        continue
      }
      const docs: SearchDoc[] = []
      if (entry.kind === 'balances' && 'items' in data && !('nextCursor' in data))
        docs.push(balancesDoc(entry.network, entry.address, data.items, data.fetchedAt))
      else if ('nextCursor' in data) {
        for (const tx of data.items) {
          const doc = transactionDoc(entry.network, entry.address, tx)
          if (doc) docs.push(doc)
        }
      }
      this.#index.setSource(entry.path, docs)
    }
    for (const path of [...this.#entries.keys()]) {
      if (present.has(path)) continue
      this.#index.removeSource(path)
      this.#entries.delete(path)
      this.#changed()
    }
  }

  /** Re-indexes a source kept outside the snapshots when it was marked dirty and its items differ. */
  #source(name: 'watchlists' | 'notes' | 'labels', docs: () => SearchDoc[]): void {
    if (!this.#dirty[name]) return
    this.#dirty[name] = false
    const now = docs()
    const d = digest(now)
    if (this.#digests[name] === d) return
    this.#digests[name] = d
    this.#index.setSource(name, now)
    this.#changed()
  }

  async #load(profile: string): Promise<void> {
    const file = this.#file(profile)
    if (!file) return
    const loaded = await loadSearchIndex(file, profile)
    // The profile changed while the file was read: the next sync starts over.
    if (this.#o.profileId() !== profile) return
    if (!loaded.ok) {
      if (loaded.why !== 'none saved') this.#o.log?.info(`search index not used (${loaded.why}); building it again`)
      return
    }
    this.#index = loaded.search
    this.#entries = new Map(loaded.files.map((e) => [e.path, e]))
    this.#digests = { ...loaded.digests }
  }

  #changed(): void {
    this.#unsaved = true
    if (!this.#o.indexDir || this.#closed) return
    if (this.#timer) clearTimeout(this.#timer)
    this.#timer = setTimeout(() => {
      this.#timer = null
      // After the sync under way, so the copy saved is of a finished state.
      void Promise.resolve(this.#syncing).then(() => this.#save())
    }, this.#o.saveDelayMs ?? 10_000)
    this.#timer.unref?.()
  }

  /** Copies the index now and writes it in the background, after any save under way. */
  #save(): void {
    const profile = this.#profile
    const file = profile ? this.#file(profile) : null
    this.#unsaved = false
    if (!profile || !file || this.#closed) return
    const saved = {
      profile,
      files: [...this.#entries.values()],
      digests: { ...this.#digests },
      state: this.#index.toState(),
    }
    this.#saving = this.#saving
      .then(() => saveSearchIndex(file, saved))
      .catch((error: unknown) => {
        // A cache: not saved costs a rebuild at the next start, nothing else.
        this.#o.log?.warn(`search index not saved: ${errorMessage(error)}`)
      })
  }

  async #hit(doc: SearchDoc): Promise<SearchHit> {
    const hit: SearchHit = {
      id: doc.id,
      kind: doc.kind,
      network: doc.network,
      address: doc.address,
      hash: doc.hash,
      title: doc.title,
      detail: doc.detail,
      ...(doc.matched ? { matched: doc.matched } : {}),
    }
    if (doc.hash) {
      const found = await this.#cachedTx(`tx|${doc.network}|${doc.hash}`, doc.hash)
      if (found) {
        hit.tx = found.tx
        hit.address ??= found.owner
      }
    }
    return hit
  }

  /** The cached item, read again from a page file holding it (the index keeps no copies of items). */
  async #cachedTx(txId: string, hash: string): Promise<{ tx: Transaction; owner: string } | null> {
    for (const path of this.#index.sourcesOf(txId)) {
      const entry = this.#entries.get(path)
      if (!entry || entry.kind !== 'page') continue
      const key = `${path}|${entry.stamp}|${entry.size}`
      let data = this.#pages.get(key)?.value
      if (data === undefined) {
        const read = await this.#o.snapshots.readEntry(entry)
        data = read && 'nextCursor' in read ? read : null
        this.#pages.set(key, data, 0)
      }
      if (!data) continue
      const tx = data.items.find((t) => typeof t.hash === 'string' && t.hash.toLowerCase() === hash)
      if (tx) return { tx, owner: entry.address }
    }
    return null
  }
}

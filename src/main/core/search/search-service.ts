import type { Note, SearchAnswer, SearchHit, Watchlist } from '../../../shared/bridge/contract'
import type { Transaction } from '../../../shared/domain/service-schemas'
import type { SnapshotEntry, SnapshotStore } from '../data/snapshot-store'
import type { Logger } from '../util/logger'
import { CachedSearch, type SearchDoc } from './cached-search'
import { balancesDoc, noteDocs, transactionDoc, watchlistDocs } from './search-docs'

export interface SearchServiceOptions {
  snapshots: SnapshotStore
  /** The active profile's id (snapshots are per profile); null before a first run. */
  profileId: () => string | null
  watchlists: () => Watchlist[]
  notes: () => Note[]
  log?: Logger
}

/**
 * Keeps the cached search in step with what main holds and answers `search.query`. It is
 * brought up to date lazily, at each query: snapshot files whose stamp changed are re-read,
 * watchlists and notes re-indexed after a change (`markDirty`). It never makes a request.
 */
export class SearchService {
  readonly #o: SearchServiceOptions
  readonly #index = new CachedSearch()
  /** Snapshot path → stamp last indexed. */
  #indexed = new Map<string, number>()
  /** Snapshot path → owning entry, for opening a transaction hit from its page. */
  #entries = new Map<string, SnapshotEntry>()
  /** Transaction id → the page file it was first indexed from. */
  #txSource = new Map<string, string>()
  #profile: string | null = null
  #dirty = { watchlists: true, notes: true }
  #syncing: Promise<void> | null = null

  constructor(options: SearchServiceOptions) {
    this.#o = options
  }

  markDirty(what: 'watchlists' | 'notes'): void {
    this.#dirty[what] = true
  }

  async query(query: string, limit: number): Promise<SearchAnswer> {
    await this.sync()
    const docs = query.trim() ? this.#index.search(query, limit) : []
    const hits: SearchHit[] = []
    for (const doc of docs) hits.push(await this.#hit(doc))
    return { hits, cachedItems: this.#index.size }
  }

  /** One sync at a time; queries arriving meanwhile share it. */
  sync(): Promise<void> {
    this.#syncing ??= this.#sync().finally(() => (this.#syncing = null))
    return this.#syncing
  }

  async #sync(): Promise<void> {
    const profile = this.#o.profileId()
    if (profile !== this.#profile) {
      this.#index.clear()
      this.#indexed.clear()
      this.#entries.clear()
      this.#txSource.clear()
      this.#profile = profile
      this.#dirty = { watchlists: true, notes: true }
    }
    if (this.#dirty.watchlists) {
      this.#dirty.watchlists = false
      this.#index.setSource('watchlists', watchlistDocs(this.#o.watchlists()))
    }
    if (this.#dirty.notes) {
      this.#dirty.notes = false
      this.#index.setSource('notes', noteDocs(this.#o.notes()))
    }
    if (!profile) return
    const catalogue = await this.#o.snapshots.catalogue(profile)
    const present = new Set<string>()
    for (const entry of catalogue) {
      present.add(entry.path)
      if (this.#indexed.get(entry.path) === entry.stamp) continue
      const data = await this.#o.snapshots.readEntry(entry)
      this.#indexed.set(entry.path, entry.stamp)
      this.#entries.set(entry.path, entry)
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
          if (!doc) continue
          docs.push(doc)
          if (!this.#txSource.has(doc.id)) this.#txSource.set(doc.id, entry.path)
        }
      }
      this.#index.setSource(entry.path, docs)
    }
    for (const path of [...this.#indexed.keys()]) {
      if (present.has(path)) continue
      this.#index.removeSource(path)
      this.#indexed.delete(path)
      this.#entries.delete(path)
    }
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
    }
    if (doc.hash) {
      const txId = `tx|${doc.network}|${doc.hash}`
      const found = await this.#cachedTx(txId, doc.hash)
      if (found) {
        hit.tx = found.tx
        hit.address ??= found.owner
      }
    }
    return hit
  }

  /** The cached item, read again from its page file (the index keeps no copies of items). */
  async #cachedTx(txId: string, hash: string): Promise<{ tx: Transaction; owner: string } | null> {
    const path = this.#txSource.get(txId)
    const entry = path ? this.#entries.get(path) : undefined
    if (!entry || !this.#index.has(txId)) return null
    const data = await this.#o.snapshots.readEntry(entry)
    if (!data || !('nextCursor' in data)) return null
    const tx = data.items.find((t) => typeof t.hash === 'string' && t.hash.toLowerCase() === hash)
    return tx ? { tx, owner: entry.address } : null
  }
}

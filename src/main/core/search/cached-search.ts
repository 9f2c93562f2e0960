import MiniSearch, { type Options } from 'minisearch'
import type { SearchHit } from '@shared/bridge/contract'
import { HexIndex } from './hex-index'
import { byKindThenScore, matchedBy } from './search-rank'

/**
 * The index behind the one search box. It lives in main:
 * main already holds every cached page, balance, watchlist and note, so nothing has to be
 * copied across the bridge to build it, the renderer stays small, and it answers with the
 * service or sandbox down.
 *
 * Two indexes, because the two kinds of text behave differently:
 * - `hex` (hex-index.ts): transaction hashes and addresses. Hundreds of thousands of unique
 *   terms; searched by prefix only (no fuzzy matching, which would walk them all), and only
 *   from 4 hex digits on, so "0x" alone does not enumerate them all.
 * - `text` (MiniSearch): methods, token symbols and names, labels, tags and note text. Few distinct terms;
 *   prefix and (from 5 letters) fuzzy matching, all words required. Thousands of cached
 *   transactions share the same words ("transfer USDC Uniswap Router"), so the text index
 *   holds each distinct text once and maps it to the items that carry it: a common word
 *   costs one scored entry, not tens of thousands (bench/analysis.ts).
 */
/** A hit (`SearchHit`, without the item) plus the words it is found by. Ids: `tx|<network>|<hash>`, `bal|<network>|<address>`, `w|<entry id>`, `n|<kind>|<network>|<key>`, `l|<network>|<address>`. */
export interface SearchDoc extends Omit<SearchHit, 'tx'> {
  /** Lowercase hex words: hashes and addresses. */
  hex: string[]
  /** Words of free text. */
  text: string[]
}

/**
 * An item as the index holds it: its fields by position, then its sources (in the order they
 * first held it; one or two, the pages of both parties). Not a SearchDoc: a restart loads
 * 100,000 of them (search-index-file.ts parses each line straight into these), and a search
 * makes SearchDoc objects only for its hits.
 */
export type HeldItem = ItemRow<string, string, string>

/** An item's fields by position; the saved index writes ids, hex words and sources shorter (search-index-file.ts). */
export type ItemRow<Id, Word, Source> = [
  id: Id,
  kind: SearchDoc['kind'],
  network: string,
  address: string | null,
  hash: string | null,
  title: string,
  detail: string,
  hex: Word[],
  text: string[],
  sources: Source[],
]
const ID = 0
const KIND = 1
const HEX = 7
const TEXT = 8
const SOURCES = 9

const heldItem = (doc: SearchDoc, sources: string[]): HeldItem => [
  doc.id,
  doc.kind,
  doc.network,
  doc.address,
  doc.hash,
  doc.title,
  doc.detail,
  doc.hex,
  doc.text,
  sources,
]

export const docOf = (h: HeldItem): SearchDoc => ({
  id: h[0],
  kind: h[1],
  network: h[2],
  address: h[3],
  hash: h[4],
  title: h[5],
  detail: h[6],
  hex: h[7],
  text: h[8],
})

const HEX_TERM = /^0x[0-9a-f]*$/
/** Hex digits after 0x before a prefix search starts (fewer: whole words only). */
const MIN_HEX_PREFIX = 4

const textTokens = (s: string): string[] => s.split(/[\s\p{P}\p{S}]+/u).filter(Boolean)

type TextEntry = { id: string; text: string }
const TEXT_OPTIONS: Options<TextEntry> = { fields: ['text'], tokenize: textTokens, processTerm: (t) => t.toLowerCase() }

/**
 * Everything the index holds, as plain data (search-index-file.ts writes it): the items with
 * their sources, in indexing order. The word indexes are rebuilt from them (`fromState`).
 */
export interface CachedSearchState {
  docs: HeldItem[]
}

/** A restored state that does not hold together (the file was not written from one index). */
class IndexMismatchError extends Error {
  readonly kind = 'index-mismatch'
  override readonly name = 'IndexMismatchError'
}

/** Lets the event loop run between slices of a long load. */
export const breathe = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

export class CachedSearch {
  readonly #hex = new HexIndex(MIN_HEX_PREFIX)
  readonly #text = new MiniSearch<TextEntry>(TEXT_OPTIONS)
  /** Distinct text → the ids of the items carrying it (the text index's document id is the text). */
  readonly #byText = new Map<string, Set<string>>()
  /** Texts that some item other than a transaction carries (a label, entry, note or address):
   * walked whole by a search; a text only transactions carry stops at `limit` of them. */
  readonly #textsBeyondTxs = new Set<string>()
  readonly #docs = new Map<string, HeldItem>()
  readonly #bySource = new Map<string, string[]>()

  get size(): number {
    return this.#docs.size
  }

  has(id: string): boolean {
    return this.#docs.has(id)
  }

  get(id: string): SearchDoc | null {
    const held = this.#docs.get(id)
    return held ? docOf(held) : null
  }

  sources(): string[] {
    return [...this.#bySource.keys()]
  }

  /** The sources holding item `id`, in the order they first held it. */
  sourcesOf(id: string): string[] {
    return [...(this.#docs.get(id)?.[SOURCES] ?? [])]
  }

  /** A copy of the index as plain data, taken at once (the caller serialises it in slices while the index changes). */
  toState(): CachedSearchState {
    const docs: CachedSearchState['docs'] = []
    for (const held of this.#docs.values()) {
      const copy = held.slice() as HeldItem
      copy[SOURCES] = held[SOURCES].slice()
      docs.push(copy)
    }
    return { docs }
  }

  /**
   * The index `toState` copied, its word indexes rebuilt in slices that let the event loop run
   * (the same index as adding the items again, source by source, in that order). Throws
   * IndexMismatchError when an item is listed twice or without a source.
   */
  static async fromState(state: CachedSearchState): Promise<CachedSearch> {
    const search = new CachedSearch()
    const texts: TextEntry[] = []
    for (let i = 0; i < state.docs.length; i++) {
      const held = state.docs[i]!
      const id = held[ID]
      const sources = held[SOURCES]
      if (search.#docs.has(id) || sources.length === 0)
        throw new IndexMismatchError(`item ${id} is listed twice or without a source`)
      search.#docs.set(id, held)
      for (const source of sources) {
        const ids = search.#bySource.get(source)
        if (ids) ids.push(id)
        else search.#bySource.set(source, [id])
      }
      search.#hex.add(id, held[HEX])
      if (held[TEXT].length) {
        const key = held[TEXT].join(' ')
        if (held[KIND] !== 'transaction') search.#textsBeyondTxs.add(key)
        const ids = search.#byText.get(key)
        if (ids) ids.add(id)
        else {
          search.#byText.set(key, new Set([id]))
          texts.push({ id: key, text: key })
        }
      }
      if (i % 5000 === 4999) await breathe()
    }
    for (let i = 0; i < texts.length; i += 2000) {
      search.#text.addAll(texts.slice(i, i + 2000))
      await breathe()
    }
    return search
  }

  /**
   * Replaces what `source` (a snapshot file, "watchlists", "notes") contributes. An item
   * several sources hold (a transaction on the pages of both its parties) is kept once and
   * stays while any of them holds it.
   */
  setSource(source: string, docs: readonly SearchDoc[]): void {
    this.removeSource(source)
    const ids: string[] = []
    for (const doc of docs) {
      const held = this.#docs.get(doc.id)
      if (held) {
        if (!held[SOURCES].includes(source)) {
          held[SOURCES].push(source)
          ids.push(doc.id)
        }
        continue
      }
      this.#docs.set(doc.id, heldItem(doc, [source]))
      ids.push(doc.id)
      this.#hex.add(doc.id, doc.hex)
      if (doc.text.length) this.#addText(doc, doc.text)
    }
    if (ids.length) this.#bySource.set(source, ids)
  }

  removeSource(source: string): void {
    const ids = this.#bySource.get(source)
    if (!ids) return
    this.#bySource.delete(source)
    for (const id of ids) {
      const held = this.#docs.get(id)
      if (!held) continue
      const at = held[SOURCES].indexOf(source)
      if (at >= 0) held[SOURCES].splice(at, 1)
      if (held[SOURCES].length > 0) continue
      this.#docs.delete(id)
      this.#hex.remove(id, held[HEX])
      if (held[TEXT].length) this.#removeText(id, held[TEXT])
    }
  }

  #addText({ id, kind }: Pick<SearchDoc, 'id' | 'kind'>, text: string[]): void {
    const key = text.join(' ')
    if (kind !== 'transaction') this.#textsBeyondTxs.add(key)
    const ids = this.#byText.get(key)
    if (ids) ids.add(id)
    else {
      this.#byText.set(key, new Set([id]))
      this.#text.add({ id: key, text: key })
    }
  }

  #removeText(id: string, text: string[]): void {
    const key = text.join(' ')
    const ids = this.#byText.get(key)
    if (!ids) return
    ids.delete(id)
    if (ids.size === 0) {
      this.#byText.delete(key)
      this.#textsBeyondTxs.delete(key)
      this.#text.discard(key)
    }
  }

  clear(): void {
    for (const source of [...this.#bySource.keys()]) this.removeSource(source)
  }

  /**
   * The best `limit` items for `query`; hex words must all match, then text words must all
   * match. The user's labels and watch entries come first, then addresses, notes and
   * transactions (search-rank.ts); each carries what matched.
   */
  search(query: string, limit = 30): SearchDoc[] {
    const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean)
    const hexWords = words.filter((w) => HEX_TERM.test(w))
    const textWords = words.filter((w) => !HEX_TERM.test(w))
    // A whole hash or address ranks first; then the closest prefixes.
    const hexHits = hexWords.length ? this.#hex.search(hexWords) : null
    const scored: [string, number, SearchDoc['kind']][] = []
    let txs = 0
    const take = (id: string, score: number): void => {
      const kind = this.#docs.get(id)?.[KIND]
      if (!kind || (kind === 'transaction' && txs >= limit)) return
      if (kind === 'transaction') txs++
      scored.push([id, score, kind])
    }
    if (textWords.length) {
      const results = this.#text.search(textWords.join(' '), {
        combineWith: 'AND',
        prefix: true,
        fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      })
      // Best text first; the items sharing one text keep their indexing order. Transactions
      // stop at `limit` (a common word must not make one per cached transaction); the few
      // labels, entries, notes and addresses are all kept to rank first.
      for (const r of results) {
        const key = String(r.id)
        const txsOnly = !this.#textsBeyondTxs.has(key)
        if (txsOnly && txs >= limit) continue
        for (const id of this.#byText.get(key) ?? []) {
          if (!hexHits || hexHits.has(id)) take(id, r.score + (hexHits?.get(id) ?? 0))
          if (txsOnly && txs >= limit) break
        }
      }
    } else if (hexHits) for (const [id, score] of hexHits) take(id, score)
    const out: SearchDoc[] = []
    for (const [id] of byKindThenScore(scored)) {
      const held = this.#docs.get(id)
      if (held) out.push({ ...docOf(held), matched: matchedBy(docOf(held), { hex: hexWords, text: textWords }) })
      if (out.length >= limit) break
    }
    return out
  }
}

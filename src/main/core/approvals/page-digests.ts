import type { Transaction } from '@shared/domain/service-schemas'
import type { SnapshotEntry } from '../data/snapshot-store'
import { eventsFromTransactions, type ApprovalEvent } from './approval-events'
import { partiesOf, type TxParties } from './approval-parties'

/** What the approvals view needs of one cached page of an owner's transactions. */
export interface PageDigest extends TxParties {
  transactions: number
  events: ApprovalEvent[]
  /** Lowercase hash → time, for grants a log found (logs carry no time). */
  times: [hash: string, timestamp: string | null][]
}

export function digestOf(txs: readonly Transaction[], owner: string): PageDigest {
  return {
    transactions: txs.length,
    events: eventsFromTransactions(txs, owner),
    times: txs.map((t) => [t.hash.toLowerCase(), t.timestamp]),
    ...partiesOf(txs),
  }
}

/** The digests kept beside the pages on disk (the snapshot store's), looked at before a page is read. */
export interface DigestShelf {
  /** The kept digest of this version of the page, if there is one. */
  find(entry: SnapshotEntry): Promise<PageDigest | null>
  /** A digest made from the page because none was kept (a page written by an older build). */
  keep(entry: SnapshotEntry, digest: PageDigest): void
}

/** About 100,000 transactions' worth of pages of 50. */
const DEFAULT_MAX = 2000

/**
 * Digests of cached pages in memory, each used once per version of its file (path, stamp and
 * size), so opening the tab again or refreshing it reads nothing that has not changed. The
 * least recently used go first past `max`; a digest holds a page's approval calls and the
 * parties it names, not its transactions. A page not held here is looked for on the shelf
 * (the digest the snapshot store kept when it wrote the page) before the page itself is read:
 * reading and checking an address's pages is most of the view's work.
 */
export class PageDigests {
  readonly #memo = new Map<string, { stamp: number; size: number; digest: PageDigest }>()
  readonly #max: number

  constructor(max = DEFAULT_MAX) {
    this.#max = max
  }

  async get(
    entry: SnapshotEntry,
    read: () => Promise<Transaction[] | null>,
    shelf?: DigestShelf,
  ): Promise<PageDigest | null> {
    const held = this.#memo.get(entry.path)
    if (held && held.stamp === entry.stamp && held.size === entry.size) {
      // Moved to the back: the map's order is the order of use.
      this.#memo.delete(entry.path)
      this.#memo.set(entry.path, held)
      return held.digest
    }
    let digest = (await shelf?.find(entry)) ?? null
    if (!digest) {
      const txs = await read()
      if (!txs) {
        this.#memo.delete(entry.path)
        return null
      }
      digest = digestOf(txs, entry.address)
      shelf?.keep(entry, digest)
    }
    this.#memo.delete(entry.path)
    this.#memo.set(entry.path, { stamp: entry.stamp, size: entry.size, digest })
    for (const path of this.#memo.keys()) {
      if (this.#memo.size <= this.#max) break
      this.#memo.delete(path)
    }
    return digest
  }
}

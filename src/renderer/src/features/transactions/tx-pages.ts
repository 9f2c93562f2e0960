import type { Provenance, TransactionsPage } from '@shared/bridge/contract'
import { checkPage, newPagingWalk, type PagingWalk } from '@shared/domain/paging-guard'
import type { Transaction } from '@shared/domain/service-schemas'
import { UnreadableRow } from './unreadable-row'

/**
 * An address's transactions as the pages main answered, joined into one list: what the
 * transactions view shows (through platform/fetched.ts). Built page by page; a list is
 * replaced, never edited, except that `seen` and `walk` move on with it (the old list is
 * dropped when a page is added).
 */
export interface TxList {
  /** The readable transactions, in list order. */
  items: Transaction[]
  /** Every row in page order: transactions and the items that could not be read. */
  entries: (Transaction | UnreadableRow)[]
  /** Items whose hash was already listed: shown once, counted here. */
  repeated: number
  nextCursor: string | null
  pages: number
  /** The oldest answer shown: a list is only as fresh as its stalest page. */
  provenance: Provenance | null
  /** Why paging stopped before the end of the history (shared/domain/paging-guard.ts), else null. */
  pagingStopped: string | null
  /** The pages as answered, so a refreshed first page can be followed by the rest. */
  raw: TransactionsPage[]
  seen: Set<string>
  walk: PagingWalk
}

export function emptyList(): TxList {
  return {
    items: [],
    entries: [],
    repeated: 0,
    nextCursor: null,
    pages: 0,
    provenance: null,
    pagingStopped: null,
    raw: [],
    seen: new Set(),
    walk: newPagingWalk(),
  }
}

function stalest(shown: Provenance | null, page: TransactionsPage): Provenance | null {
  const older = shown === null || Date.parse(page.fetchedAt) < Date.parse(shown.fetchedAt) || page.staleReason !== null
  if (!older) return shown
  return {
    source: page.source,
    fetchedAt: page.fetchedAt,
    staleReason: page.staleReason,
    ...(page.checkedAt ? { checkedAt: page.checkedAt } : {}),
  }
}

/** The list with one more page (a first page, `cursor` null, starts it over). */
export function withPage(list: TxList, page: TransactionsPage): TxList {
  const base = page.cursor === null ? emptyList() : list
  // Main read each item on its own: here they are merged back in page order, and an item
  // whose hash is already listed is shown once and counted.
  const rows: (Transaction | UnreadableRow)[] = [...page.items]
  for (const u of [...page.unreadable].sort((a, b) => a.index - b.index))
    rows.splice(Math.min(u.index, rows.length), 0, new UnreadableRow(u, base.pages))
  const freshRows: (Transaction | UnreadableRow)[] = []
  const freshItems: Transaction[] = []
  let dup = 0
  for (const row of rows) {
    const hash = row instanceof UnreadableRow ? row.item.hash : row.hash
    if (hash !== null) {
      if (base.seen.has(hash)) {
        dup++
        continue
      }
      base.seen.add(hash)
    }
    freshRows.push(row)
    if (!(row instanceof UnreadableRow)) freshItems.push(row)
  }
  // Main's guard (paging-guard.ts) judged the page already; the same rule here covers pages
  // that main answered from its cache. This walk lasts as long as the open address.
  const stop =
    page.pagingStopped ??
    checkPage(base.walk, { cursor: page.cursor, nextCursor: page.nextCursor, itemIds: page.items.map((tx) => tx.hash) })
  return {
    items: base.items.concat(freshItems),
    entries: base.entries.concat(freshRows),
    repeated: base.repeated + dup,
    nextCursor: stop ? null : page.nextCursor,
    pages: base.pages + 1,
    provenance: stalest(base.provenance, page),
    pagingStopped: stop,
    raw: [...base.raw, page],
    seen: base.seen,
    walk: base.walk,
  }
}

/**
 * A live first page followed by the later pages already shown, when the two first pages
 * share a transaction (so no gap can hide between them); else the live page alone.
 */
export function refreshedFirst(shown: TxList | null, first: TransactionsPage): TxList {
  const fresh = withPage(emptyList(), first)
  const old = shown?.raw[0]
  if (!shown || !old || shown.raw.length < 2) return fresh
  const hashes = new Set(first.items.map((tx) => tx.hash))
  if (!old.items.some((tx) => hashes.has(tx.hash))) return fresh
  return shown.raw.slice(1).reduce(withPage, fresh)
}

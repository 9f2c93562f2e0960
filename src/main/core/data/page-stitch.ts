import type { ParsedItems, Transaction } from '@shared/domain/service-schemas'

/** A cached page of transactions: its rows, rows it could not read, and the cursor after it. */
export type PageValue = {
  items: Transaction[]
  unreadable?: ParsedItems<Transaction>['unreadable']
  nextCursor: string | null
}

/**
 * A refetched first page that ends inside the previous first page (fewer than a page of new
 * transactions came): it is followed by the rest of the previous page and handed out with the
 * previous page's cursor. Cursors name a position in the list (Blockscout's are keyset cursors:
 * block, index, hash), not an offset, so the pages behind that cursor, already fetched, still
 * follow on exactly and need no request. Were a service's cursor an offset, its later pages
 * would only repeat a few rows (shown once, by hash), never skip any: new transactions come in
 * at the top. Not stitched when either page has unreadable items (their place is unknown) or the
 * new page's last row is not in the previous page (a page or more of new transactions), nor when
 * the result would pass twice the new page's length: the previous page may itself be stitched,
 * and a busy address refetched all session would otherwise grow its first page (and its snapshot)
 * without bound. The next page is then asked for with the new page's own cursor.
 */
export function stitchFirstPage(fresh: PageValue, previous: PageValue | undefined): PageValue {
  if (!previous || fresh.nextCursor === null || previous.nextCursor === null) return fresh
  if ((fresh.unreadable?.length ?? 0) > 0 || (previous.unreadable?.length ?? 0) > 0) return fresh
  const last = fresh.items.at(-1)
  if (!last || last.block === null) return fresh
  const at = previous.items.findIndex((tx) => tx.hash === last.hash)
  if (at < 0) return fresh
  const shown = new Set(fresh.items.map((tx) => tx.hash))
  const rest = previous.items.slice(at + 1).filter((tx) => !shown.has(tx.hash))
  if (rest.length > fresh.items.length) return fresh
  return { items: [...fresh.items, ...rest], unreadable: fresh.unreadable ?? [], nextCursor: previous.nextCursor }
}

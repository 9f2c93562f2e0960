import type { Provenance, TransactionsPage } from '@shared/bridge/contract'
import type { BridgeResult } from '@shared/bridge/errors'
import type { Transaction } from '@shared/domain/service-schemas'
import { bridge } from './bridge'

/**
 * The first page of an address main has cached, of any age, asked for free (`cacheOnly` never
 * sends a request); null when none is kept. What the flow graph and reports read before anything
 * would cost quota.
 */
export async function readCachedPage(
  network: string,
  address: string,
): Promise<({ items: Transaction[] } & Provenance) | null> {
  const r = await bridge.invoke('data.transactions', {
    network,
    address,
    cursor: null,
    priority: 'user',
    refresh: false,
    cacheOnly: true,
  })
  return r.ok
    ? { items: r.value.items, source: r.value.source, fetchedAt: r.value.fetchedAt, staleReason: r.value.staleReason }
    : null
}

/**
 * Every page main keeps of an address, in order from the first, following the cursors while
 * the next page is kept too; never a request. Empty when not even the first page is kept.
 */
export async function readCachedPages(network: string, address: string): Promise<TransactionsPage[]> {
  const pages: TransactionsPage[] = []
  let cursor: string | null = null
  const asked = new Set<string | null>()
  // A cursor asked twice would loop: main's paging guard stops that too, this is belt and braces.
  while (!asked.has(cursor)) {
    asked.add(cursor)
    const r: BridgeResult<TransactionsPage> = await bridge.invoke('data.transactions', {
      network,
      address,
      cursor,
      priority: 'user',
      refresh: false,
      cacheOnly: true,
    })
    if (!r.ok) break
    // Placed by the cursor asked for, whatever the page says.
    pages.push({ ...r.value, cursor })
    if (!r.value.nextCursor) break
    cursor = r.value.nextCursor
  }
  return pages
}

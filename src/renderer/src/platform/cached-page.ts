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
): Promise<{ items: Transaction[]; fetchedAt: string } | null> {
  const r = await bridge.invoke('data.transactions', {
    network,
    address,
    cursor: null,
    priority: 'user',
    refresh: false,
    cacheOnly: true,
  })
  return r.ok ? { items: r.value.items, fetchedAt: r.value.fetchedAt } : null
}

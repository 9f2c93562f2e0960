import { transactionsResponseSchema, type Transaction } from '@shared/domain/service-schemas'
import { readFixture } from '@shared/testing/blockscout-fixtures'

/**
 * Test support: the Blockscout-written transaction items, read by main's schema as the app
 * reads a page, by their fixture id.
 */
export function fixtureTransactions(): { address: string; byId: Map<string, Transaction>; items: Transaction[] } {
  const file = readFixture('transactions')
  const parsed = transactionsResponseSchema.parse({ items: file.items.map((i) => i.item), next_page_params: null })
  if (parsed.unreadable.length) throw new Error('a fixture item could not be read')
  const byId = new Map<string, Transaction>()
  file.items.forEach((i, n) => byId.set(i.id, parsed.items[n]!))
  return { address: file.address, byId, items: parsed.items }
}

/** The fixture ids of some transactions, in their order. */
export function idsOf(byId: Map<string, Transaction>, list: readonly Transaction[]): string[] {
  const ids = new Map([...byId].map(([id, tx]) => [tx, id]))
  return list.map((tx) => ids.get(tx) ?? '?')
}

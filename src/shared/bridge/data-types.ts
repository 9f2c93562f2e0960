import type { z } from 'zod'
import type { BalanceItem, Transaction, UnreadableItem } from '../domain/service-schemas'
import type { prioritySchema } from './call-schemas'

/** The service's data and RPC answers as the renderer gets them, with where each came from. */

export type Priority = z.infer<typeof prioritySchema>

/** Where a data answer came from: freshly fetched, a fresh cache, or a saved snapshot. */
export type DataSource = 'network' | 'cache' | 'snapshot'

export interface Provenance {
  source: DataSource
  fetchedAt: string
  /**
   * Set when shown from a snapshot because the network or quota is unavailable, or because the
   * user chose to work offline (`offline-by-choice`: nothing was sent).
   */
  staleReason: 'offline' | 'offline-by-choice' | 'quota' | 'rate-limited' | null
  /**
   * Set when cached data older than its freshness window was kept because the service said the
   * address had not changed since (a revalidation, data/revalidate.ts): `fetchedAt` stays when
   * the data was fetched; this is when it was last confirmed.
   */
  checkedAt?: string
}

export interface BalancesView extends Provenance {
  network: string
  address: string
  items: BalanceItem[]
  /** Items that did not match the schema, kept raw (shown as marked rows, exported as raw rows). */
  unreadable: UnreadableItem[]
}

export interface TransactionsPage extends Provenance {
  network: string
  address: string
  cursor: string | null
  items: Transaction[]
  /** Items that did not match the schema, kept raw; `index` is their position in this page. */
  unreadable: UnreadableItem[]
  nextCursor: string | null
  /**
   * Set when main stopped following the service's cursors (a repeated cursor, one that does
   * not move back in the history, 3 pages with nothing new): why, in a sentence. `nextCursor`
   * is then null. See shared/domain/paging-guard.ts.
   */
  pagingStopped?: string
}

export interface RpcCallResult {
  result: unknown
}

export type RpcBatchItem = { ok: true; result: unknown } | { ok: false; code: number; message: string; data?: unknown }

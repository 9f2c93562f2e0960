import type { Transaction } from '../domain/service-schemas'
import type { Provenance } from './data-types'

/** What an analyst keeps and finds without a request: notes, the cached search, presence per network. */

/** A local note on a transaction (key = hash) or an address (key = address), both lowercase. */
export interface Note {
  kind: 'tx' | 'address'
  network: string
  key: string
  text: string
  updatedAt: string
}

/** One hit of the cached search (`search.query`); what the renderer needs to open it. */
export interface SearchHit {
  id: string
  kind: 'transaction' | 'address' | 'watch-entry' | 'note' | 'label'
  network: string
  /** Lowercase address to open (the page's owner for a transaction), or null. */
  address: string | null
  hash: string | null
  title: string
  detail: string
  /** A transaction hit carries the cached item, so it opens with the sandbox or service down. */
  tx?: Transaction
  /** What matched the query, shown beside the hit (set on answers, not on indexed items). */
  matched?: SearchMatch[]
}

/** What part of an item matched a search. */
export type SearchMatch = 'label' | 'address' | 'tx hash' | 'note' | 'token' | 'name, method or token'

export interface SearchAnswer {
  hits: SearchHit[]
  /** Items in the index (transactions, balances, watch entries, notes). */
  cachedItems: number
}

/** Whether an address has balances and activity on one network (the both-networks summary). */
export interface NetworkPresence {
  network: string
  /** Native balance in wei (decimal string), from `eth_getBalance`; null when unknown. */
  nativeWei: string | null
  /** Transactions sent (`eth_getTransactionCount`); null when unknown. */
  nonce: number | null
  /** Token kinds in the last balances answer kept for it (any age); null when none is kept. */
  tokens: number | null
  /** Transactions of it in the offline snapshots. */
  cachedTransactions: number
  source: 'cache' | 'network' | 'none'
  /** Requests this answer cost (0 from cache, 1 for the RPC batch). */
  requests: number
  fetchedAt: string | null
  error: { kind: string; message: string } | null
  /**
   * Why a card kept from the cache (`source: 'cache'`) is shown instead of a fresh answer: its
   * network's check failed (main's `staleReasonFor` of the error), or null.
   */
  staleReason: Provenance['staleReason']
}

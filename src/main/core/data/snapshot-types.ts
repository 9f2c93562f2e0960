import type { BalanceItem, Transaction, UnreadableItem } from '@shared/domain/service-schemas'

/** What the snapshot store (snapshot-store.ts) keeps: an address's balances and its transaction pages. */
export interface BalancesSnapshot {
  fetchedAt: number
  items: BalanceItem[]
  /** Absent in snapshots written before items were read one by one. */
  unreadable?: UnreadableItem[]
}

export interface PageSnapshot {
  fetchedAt: number
  items: Transaction[]
  unreadable?: UnreadableItem[]
  nextCursor: string | null
}

export interface SnapshotEntry {
  path: string
  network: string
  /** Lowercase. */
  address: string
  kind: 'balances' | 'page'
  /** With `size`, changes whenever the file is rewritten (its mtime: stable across restarts). */
  stamp: number
  size: number
}

/** Where one transaction page is kept: the profile, network and address, and its cursor (null: the first). */
export interface PageAt {
  profileId: string
  network: string
  address: string
  cursor: string | null
}

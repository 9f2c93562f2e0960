/** Watchlists and what the watch check found changed on their addresses. */

export interface WatchEntry {
  id: string
  /** Stored lowercase; the renderer shows it checksummed. */
  address: string
  network: string
  label: string
  note: string
  tags: string[]
  addedAt: string
  /** Other networks the same address is watched on; absent in older files. */
  alsoNetworks?: string[]
}

export interface Watchlist {
  id: string
  name: string
  entries: WatchEntry[]
}

/** A token amount that changed on a watched address since the last look (`delta` signed, smallest unit). */
export interface WatchDelta {
  /** The token contract, or null for the network's coin. */
  token: string | null
  /** ERC-20 amounts; ERC-721 and ERC-1155 count items. */
  standard: 'coin' | 'erc20' | 'erc721' | 'erc1155'
  delta: string
  /** From the address's balances (refetched when it changed); null when unknown. */
  symbol: string | null
  decimals: number | null
}

/** What changed on one watched (network, address) since the user last looked. */
export interface WatchStatus {
  network: string
  address: string
  /** Something changed since "mark seen" (or since the baseline). */
  unseen: boolean
  /** New transactions since the last look; `newTxsMore` when the first page was all new. */
  newTxs: number
  newTxsMore: boolean
  deltas: WatchDelta[]
  /** The last check that read this address; null before the first. */
  checkedAt: string | null
  /** The first check sets the baseline: nothing before it counts as new. */
  baseline: boolean
}

/** One run of the watch check. */
export interface WatchCheckResult {
  checkedAt: string
  addresses: number
  changed: number
  /** Requests it cost, per network and in all; `batched` false where the provider refuses batches. */
  requests: number
  networks: {
    network: string
    addresses: number
    changed: number
    requests: number
    batched: boolean
    error: string | null
  }[]
  statuses: WatchStatus[]
}

/** The periodic watch check: off by default; its budget is a share of the daily quota. */
export interface WatchSettings {
  periodic: boolean
  /** Default 0.05 (5 % of the daily quota per day of visible time). */
  budgetFraction: number
  /** Minutes between checks the budget allows now (null while it cannot tell). */
  intervalMinutes: number | null
}

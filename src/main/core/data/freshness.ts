/** How long an answer is served without asking again (`refresh` always asks). */
export interface Freshness {
  /**
   * Default 5 min: balances move with every transfer. The spec leaves how fresh the service's
   * own answers are unshown; at 1,000 requests a day (one every 86 s), an analyst going round a
   * handful of addresses gets their data checked (data/revalidate.ts, one request for up to five
   * addresses) and then served for this long with its age shown, and Refresh always asks.
   */
  balancesMs: number
  /** Default 5 min: the newest page grows with new transactions (see `balancesMs`). */
  firstPageMs: number
  /**
   * Default 24 h: a page behind a cursor lists older, settled transactions; only their
   * `confirmations` age, and those are recomputed from the live height when served.
   */
  laterPageMs: number
  /**
   * Default 1 h: how long after its fetch stale balances or a first page may still be kept by
   * revalidation (data/revalidate.ts) instead of refetched. It bounds what a revalidation cannot
   * see (a zero-value, log-less transaction to the address) to this age.
   */
  revalidatedMaxMs: number
}

export const DEFAULT_FRESHNESS: Freshness = {
  balancesMs: 300_000,
  firstPageMs: 300_000,
  laterPageMs: 24 * 3600_000,
  revalidatedMaxMs: 3600_000,
}

/** Cache keys: an address's balances, and a page of its transactions (`null`: the first page). */
export const balancesKey = (network: string, address: string): string => `b|${network}|${address}`
export const pageKey = (network: string, address: string, cursor: string | null): string =>
  `t|${network}|${address}|${cursor ?? ''}`

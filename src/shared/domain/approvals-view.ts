import type { ApprovalKind, RevokeCall } from './approvals'
import type { Billing } from './billing'
import type { Provenance } from '../bridge/data-types'

/** A party of an approval as the app knows it from loaded data and watchlists (nulls where unknown). */
export interface ApprovalParty {
  address: string
  name: string | null
  tags: string[]
  watchlistLabel: string | null
  isContract: boolean | null
  isVerified: boolean | null
}

export interface ApprovalGrant {
  tx: string
  block: number | null
  timestamp: string | null
  via: 'approve' | 'increaseAllowance' | 'decreaseAllowance' | 'permit' | 'setApprovalForAll' | 'log'
}

/** One approval on the address page. Amounts are exact decimal strings (bigint across the bridge). */
export interface ApprovalRow {
  kind: ApprovalKind
  /** `rate`: the token's exchange rate (USD per whole token) where the service gives one; absent in older saved views. */
  token: ApprovalParty & { symbol: string | null; decimals: number | null; type: string | null; rate?: string | null }
  spender: ApprovalParty
  /** ERC-721 single approval: the token id. */
  tokenId: string | null
  status: 'live' | 'revoked' | 'spent' | 'unknown'
  /** ERC-20 allowance now; null for NFT approvals. */
  allowance: string | null
  /** ERC-20: the amount last granted (a live allowance below it was partly spent); null where unknown. */
  grantedAmount: string | null
  /** At or above 2^255 (see UNLIMITED_FROM). */
  unlimited: boolean
  /** ERC-20: the owner's balance now. */
  balance: string | null
  /** ERC-20: min(allowance, balance), raw units; null while the balance is unknown. */
  atRisk: string | null
  /** The same in US cents where the token's rate is known. */
  atRiskCents: string | null
  granted: ApprovalGrant | null
  last: ApprovalGrant
  /** For a live approval: the call that would revoke it. */
  revoke: RevokeCall | null
}

/** Where the complete log scan of an address stands on a network. */
export interface ApprovalScanState {
  /** Blocks 0..scannedTo have been read (null: never scanned). */
  scannedTo: number | null
  head: number | null
  /** `eth_getLogs` calls the rest takes at the cap known now, and what the scan costs in the profile's unit (head and state call included). */
  remainingCalls: number
  remainingUnits: number
  /** How the profile's service counts (the unit of every cost here). */
  billing: Billing
  /** The most blocks one call may span, where the provider has named a cap. */
  logCap: number | null
  /** Logs the scan read but left out: not well-formed approval logs of the address (a hostile or broken provider). */
  skippedLogs: number
}

/**
 * Its provenance: `source: 'network'` and the time of the state call when it answered now;
 * otherwise `'cache'` and the time of the oldest loaded page the rows come from, with
 * `staleReason` when the state call was not sent or failed because the service failed (or Work
 * offline is on): a view served for a failure.
 */
export interface ApprovalsView extends Provenance {
  network: string
  address: string
  rows: ApprovalRow[]
  /** Loaded transactions the calls were looked for in. */
  transactionsRead: number
  /** Why the current state could not be read (rows then say what the events tell), or null. */
  stateError: string | null
  /** What this answer cost, counted as sent. */
  cost: { requests: number; units: number }
  scan: ApprovalScanState
}

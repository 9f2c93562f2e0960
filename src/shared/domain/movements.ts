import type { AddressObject, Transaction } from './service-schemas'
import { parseAmount } from './amount'
import { isFailed } from './tx-state'
import { partyHash, partyLabel, transfersOf } from './transfers'

/** The native coin's key among the assets; token keys are lowercase contract addresses. */
export const NATIVE = 'native'

/**
 * One movement of value a transaction records: its top-level native value, or one of its
 * token transfers. The one reading of "who moved what to whom" that the counterparties table
 * (one hop) and the flow graph (many hops) share.
 */
export interface Movement {
  kind: 'native' | 'transfer'
  /** Lowercase; null when the item names no party (a contract creation has no `to`). */
  from: string | null
  to: string | null
  /** `NATIVE` for the coin, else the lowercase token contract (`?<symbol>` when unknown). */
  asset: string
  symbol: string
  decimals: number | null
  /** Smallest units; 0 for every movement of a failed transaction: it moved nothing. */
  value: bigint
  fromLabel: string | null
  toLabel: string | null
  fromParty: AddressObject | null
  toParty: AddressObject | null
}

export interface TxMovements {
  failed: boolean
  /** The transaction's time, or null when it has none (pending) or it cannot be read. */
  ms: number | null
  /** The item lists only its first token transfers (`token_transfers_overflow`). */
  overflow: boolean
  movements: Movement[]
}

export function movementsOf(tx: Transaction): TxMovements {
  const failed = isFailed(tx)
  const parsedMs = typeof tx.timestamp === 'string' ? Date.parse(tx.timestamp) : Number.NaN
  const movements: Movement[] = [
    {
      kind: 'native',
      from: partyHash(tx.from),
      to: partyHash(tx.to),
      asset: NATIVE,
      symbol: 'coin',
      decimals: 18,
      value: failed ? 0n : (parseAmount(tx.value) ?? 0n),
      fromLabel: partyLabel(tx.from),
      toLabel: partyLabel(tx.to),
      fromParty: tx.from ?? null,
      toParty: tx.to ?? null,
    },
  ]
  const t = transfersOf(tx)
  for (const f of t.flows)
    movements.push({
      kind: 'transfer',
      from: f.from,
      to: f.to,
      asset: f.token,
      symbol: f.symbol,
      decimals: f.decimals,
      value: failed ? 0n : f.value,
      fromLabel: f.fromLabel,
      toLabel: f.toLabel,
      fromParty: f.fromParty,
      toParty: f.toParty,
    })
  return { failed, ms: Number.isNaN(parsedMs) ? null : parsedMs, overflow: t.overflow, movements }
}

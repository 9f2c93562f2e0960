import type { Transaction } from '@shared/domain/service-schemas'
import type { BalanceHistory } from '../analysis'
import { dayEndMs } from './address-filters'

export interface AssetAt {
  key: string
  symbol: string
  decimals: number | null
  /** Smallest units at the end of the day; null when the loaded transactions do not reach back that far. */
  value: bigint | null
  today: bigint
  /** The walk back went below zero somewhere: a movement the loaded items do not show. */
  inconsistent: boolean
}

export interface BalanceAt {
  /** The first moment after the chosen UTC day: balances are as of just before it. */
  atMs: number
  /**
   * 'complete': every transaction after the day is loaded, so each value is exact;
   * 'partial': older pages are missing, values are null.
   */
  sureness: 'complete' | 'partial'
  /** The oldest loaded transaction's time: from then on balances are exact (null: none loaded). */
  completeFromMs: number | null
  assets: AssetAt[]
}

/** The last point at or before `ms` (points oldest first); -1 when all are later. */
function pointAt(points: readonly { ms: number }[], ms: number): number {
  let lo = 0
  let hi = points.length - 1
  let found = -1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (points[mid]!.ms <= ms) {
      found = mid
      lo = mid + 1
    } else hi = mid - 1
  }
  return found
}

/**
 * Each asset's balance at the end of a UTC day, read off the balance history walked back
 * from today's balances. Exact when every transaction after that day is loaded: all pages
 * are, or the oldest loaded one is no later than the day's end (pages come newest first).
 * Otherwise nothing is guessed: the values are null and the caller says what is missing.
 */
export function balanceAtDay(history: BalanceHistory, day: string, allLoaded: boolean): BalanceAt {
  const atMs = dayEndMs(day)
  const end = atMs - 1
  const from = history.completeFromMs
  const complete = allLoaded || (from !== null && from <= end)
  const assets = history.assets.map((a): AssetAt => {
    let value: bigint | null = null
    if (complete) {
      const i = pointAt(a.points, end)
      // Before the first point: before every loaded change, which (all being loaded) is the
      // balance before the first transaction.
      value = i >= 0 ? a.points[i]!.value : (a.points[0]?.value ?? a.today)
    }
    return { key: a.key, symbol: a.symbol, decimals: a.decimals, value, today: a.today, inconsistent: a.inconsistent }
  })
  return { atMs, sureness: complete ? 'complete' : 'partial', completeFromMs: from, assets }
}

/**
 * Transactions after a moment whose token transfers the service cut short
 * (`token_transfers_overflow`): the walk back could not undo the missing ones, so token
 * balances before them may be off, and the view says so next to "complete".
 */
export function cutAfter(items: readonly Transaction[], ms: number): number {
  let n = 0
  for (const tx of items) {
    if (tx.token_transfers_overflow !== true) continue
    const t = typeof tx.timestamp === 'string' ? Date.parse(tx.timestamp) : Number.NaN
    if (!(t <= ms)) n++
  }
  return n
}

import type { BalanceItem, Transaction } from '@shared/domain/service-schemas'
import { parseAmount, parseDecimals } from '@shared/domain/amount'
import { isFailed } from '@shared/domain/tx-state'
import { NATIVE } from '@shared/domain/movements'
import { partyHash, transfersOf } from '@shared/domain/transfers'

export interface AssetNow {
  key: string
  symbol: string
  decimals: number | null
  value: bigint
}

export interface HistoryPoint {
  ms: number
  /** The balance just after this moment (smallest units). */
  value: bigint
}

export interface AssetHistory {
  key: string
  symbol: string
  decimals: number | null
  today: bigint
  /** Oldest first: the balance before the oldest loaded change, after each change, and now. */
  points: HistoryPoint[]
  /**
   * Walking back went below zero: something moved it that the loaded items do not show
   * (internal transactions, transfers beyond an item's first 50). Shown, never hidden.
   */
  inconsistent: boolean
}

export interface BalanceHistory {
  assets: AssetHistory[]
  /** From when the history is exact: the oldest loaded transaction (null: nothing loaded). */
  completeFromMs: number | null
}

/** Today's token balances by contract (NFTs: one item per id, summed to a count). */
export function assetsFromBalances(items: readonly BalanceItem[]): AssetNow[] {
  const out = new Map<string, AssetNow>()
  for (const item of items) {
    const address = typeof item?.token?.address === 'string' ? item.token.address.toLowerCase() : null
    const value = parseAmount(item?.value)
    if (!address || value === null) continue
    const prev = out.get(address)
    if (prev) prev.value += value
    else
      out.set(address, {
        key: address,
        symbol: item.token.symbol ?? item.token.name ?? 'token',
        decimals: parseDecimals(item.token.decimals),
        value,
      })
  }
  return [...out.values()]
}

const msOf = (tx: Transaction): number => (typeof tx?.timestamp === 'string' ? Date.parse(tx.timestamp) : Number.NaN)

/**
 * Balances over time, reconstructed backwards from today's: starting from `now`,
 * each loaded transaction is undone, newest first. Exact with bigint: the native coin loses
 * value and fee when sent (the fee even when the transaction failed) and gains value when
 * received and not failed; a token gains and loses its transfers of non-failed transactions.
 */
export function balanceHistory(
  items: readonly Transaction[],
  address: string,
  now: readonly AssetNow[],
  nowMs: number,
): BalanceHistory {
  const me = address.toLowerCase()
  const assets = new Map<string, AssetHistory & { running: bigint }>()
  for (const a of now)
    assets.set(a.key, {
      key: a.key,
      symbol: a.symbol,
      decimals: a.decimals,
      today: a.value,
      points: [{ ms: nowMs, value: a.value }],
      inconsistent: false,
      running: a.value,
    })
  const nativeKnown = assets.has(NATIVE)

  // Newest first; within one time, the later block and position first. Times parsed once.
  const sorted: { tx: Transaction; ms: number }[] = []
  for (const tx of items) {
    const ms = tx ? msOf(tx) : Number.NaN
    if (!Number.isNaN(ms)) sorted.push({ tx, ms })
  }
  sorted.sort(
    (a, b) => b.ms - a.ms || (b.tx.block ?? 0) - (a.tx.block ?? 0) || (b.tx.position ?? 0) - (a.tx.position ?? 0),
  )

  const deltas = new Map<string, bigint>()
  for (const { tx, ms } of sorted) {
    deltas.clear()
    const failed = isFailed(tx)
    const from = partyHash(tx.from)
    const to = partyHash(tx.to)
    if (nativeKnown) {
      const value = failed ? 0n : (parseAmount(tx.value) ?? 0n)
      let d = 0n
      if (from === me) d -= value + (parseAmount(tx.fee?.value) ?? 0n)
      if (to === me) d += value
      if (d !== 0n || from === me) deltas.set(NATIVE, d)
    }
    if (!failed) {
      for (const f of transfersOf(tx).flows) {
        if (f.from !== me && f.to !== me) continue
        let a = assets.get(f.token)
        if (!a) {
          // Moved before but not held now: today's balance is zero.
          a = {
            key: f.token,
            symbol: f.symbol,
            decimals: f.decimals,
            today: 0n,
            points: [{ ms: nowMs, value: 0n }],
            inconsistent: false,
            running: 0n,
          }
          assets.set(f.token, a)
        }
        const d = (f.to === me ? f.value : 0n) - (f.from === me ? f.value : 0n)
        deltas.set(f.token, (deltas.get(f.token) ?? 0n) + d)
      }
    }
    for (const [key, d] of deltas) {
      const a = assets.get(key)!
      a.points.push({ ms, value: a.running })
      a.running -= d
      if (a.running < 0n) a.inconsistent = true
    }
  }
  const oldest = sorted.length ? sorted[sorted.length - 1]!.ms : null
  const out: AssetHistory[] = []
  for (const { running, ...a } of assets.values()) {
    if (oldest !== null) a.points.push({ ms: oldest - 1, value: running })
    a.points.reverse()
    out.push(a)
  }
  return { assets: out, completeFromMs: oldest }
}

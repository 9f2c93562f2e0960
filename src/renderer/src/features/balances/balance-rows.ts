import type { BalanceItem } from '@shared/domain/service-schemas'
import { displayName } from '@shared/domain/display-name'
import {
  compareAmounts,
  exactFiatValue,
  formatTokenAmount,
  roundScaled,
  sumScaled,
  type ScaledDecimal,
  type TokenAmount,
} from '@shared/domain/amount'
import type { CoinInfo, CoinRate } from '@shared/domain/money'

/** One row of the balances table, computed once from a wire item. */
export interface BalanceRow {
  id: string
  tokenAddress: string
  name: string
  symbol: string
  type: string
  iconUrl: string | null
  amount: TokenAmount
  /** Fiat value in cents (rounded once, for display), or null without an exchange rate. */
  fiatCents: bigint | null
  /** The exact fiat value, which sums add before they round (a total is not a sum of cents). */
  fiatExact: ScaledDecimal | null
  rate: string | null
  tokenId: string | null
  instance: Record<string, unknown> | null
  item: BalanceItem
}

export type BalanceSortKey = 'amount' | 'fiat' | 'name' | 'symbol' | 'type'
export type SortDir = 'asc' | 'desc'

/** The service's name or symbol as it may be shown (`displayName`), else a stand-in. */
const str = (v: string | null | undefined, fallback: string): string => displayName(v) ?? fallback

/** One row per parsed item; null names and symbols get a readable stand-in. */
export function toBalanceRow(item: BalanceItem, index: number): BalanceRow {
  const token = item.token
  const tokenId = item.token_id ?? null
  const address = token.address
  const rate = token.exchange_rate ?? null
  const fiatExact = rate === null ? null : exactFiatValue(item.value, token.decimals, rate)
  return {
    id: `${address}:${tokenId ?? ''}:${index}`,
    tokenAddress: address,
    name: str(token.name, 'Unnamed token'),
    symbol: str(token.symbol, '—'),
    type: str(token.type, 'unknown'),
    iconUrl: token.icon_url && /^https:\/\//.test(token.icon_url) ? token.icon_url : null,
    amount: formatTokenAmount(item.value, token.decimals),
    fiatCents: fiatExact === null ? null : roundScaled(fiatExact),
    fiatExact,
    rate,
    tokenId,
    instance: item.token_instance ?? null,
    item,
  }
}

/** The id of the coin's row: the coin is an asset like the tokens (docs/decisions/coin-as-asset.md). */
const COIN_ROW_ID = 'coin'

/**
 * The native coin as a holdings row, read like a token's item: its balance from the
 * both-networks check, its symbol and decimals from the profile, its rate (if any) from the
 * newest transaction. It has no contract address.
 */
export function coinBalanceRow(o: {
  wei: bigint
  coin: CoinInfo
  rate: CoinRate | null
  networkLabel: string
}): BalanceRow {
  const item: BalanceItem = {
    token: {
      address: '',
      decimals: String(o.coin.decimals),
      exchange_rate: o.rate?.rate ?? null,
      name: `${o.networkLabel} coin (native)`,
      symbol: o.coin.symbol,
      type: 'coin',
    },
    value: o.wei.toString(),
  }
  return { ...toBalanceRow(item, 0), id: COIN_ROW_ID, symbol: o.coin.symbol }
}

export interface BalanceFilter {
  type: string
  hideZero: boolean
  query: string
}

export function filterRows(rows: readonly BalanceRow[], f: BalanceFilter): BalanceRow[] {
  const q = f.query.trim().toLowerCase()
  return rows.filter((r) => {
    if (f.type !== 'all' && r.type !== f.type) return false
    if (f.hideZero && (!r.amount.known || r.amount.value === 0n)) return false
    if (q && !`${r.name} ${r.symbol} ${r.tokenAddress}`.toLowerCase().includes(q)) return false
    return true
  })
}

function compareNullableBig(a: bigint | null, b: bigint | null): number {
  if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1
  return a === b ? 0 : a < b ? -1 : 1
}

export function sortRows(rows: readonly BalanceRow[], key: BalanceSortKey, dir: SortDir): BalanceRow[] {
  const sign = dir === 'asc' ? 1 : -1
  const cmp = (a: BalanceRow, b: BalanceRow): number => {
    switch (key) {
      case 'amount': {
        // Unknown amounts stay last in both directions.
        if (a.amount.value === null || b.amount.value === null) return compareAmounts(a.amount, b.amount)
        return sign * compareAmounts(a.amount, b.amount)
      }
      case 'fiat':
        if (a.fiatCents === null || b.fiatCents === null) return compareNullableBig(a.fiatCents, b.fiatCents)
        return sign * compareNullableBig(a.fiatCents, b.fiatCents)
      default:
        return sign * a[key].localeCompare(b[key], undefined, { sensitivity: 'base' })
    }
  }
  return [...rows].sort((a, b) => cmp(a, b) || a.name.localeCompare(b.name))
}

export interface AllocationSlice {
  label: string
  cents: bigint
}

/** The largest fiat holdings, the rest summed as "Other". Only rows with a rate count. */
export function allocation(rows: readonly BalanceRow[], max = 6): AllocationSlice[] {
  const priced = rows
    .filter((r) => r.fiatCents !== null && r.fiatCents > 0n)
    .sort((a, b) => compareNullableBig(b.fiatCents, a.fiatCents))
  const top = priced.slice(0, max).map((r) => ({ label: r.symbol === '—' ? r.name : r.symbol, cents: r.fiatCents! }))
  const rest = totalFiat(priced.slice(max)) ?? 0n
  return rest > 0n ? [...top, { label: 'Other', cents: rest }] : top
}

/**
 * The rows' fiat total in cents: their exact values summed, then rounded once. Adding the rows'
 * rounded cents drifts by up to half a cent a row. Null when no row has a rate.
 */
export function totalFiat(rows: readonly BalanceRow[]): bigint | null {
  const parts = rows.flatMap((r) => (r.fiatExact ? [r.fiatExact] : []))
  return parts.length ? roundScaled(sumScaled(parts)) : null
}

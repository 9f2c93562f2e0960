import type { Transaction } from './service-schemas'
import { exactFiatValue, formatFiat, parseDecimalNumber, roundScaled, sumScaled, type ScaledDecimal } from './amount'
import { movementsOf, NATIVE } from './movements'

/**
 * Money: the native coin is an asset like the tokens. Its name, its value where a rate is
 * known, totals that say whether they hold it, and sums in and out per asset over any set of
 * transactions. Every amount is a bigint and every value an exact scaled decimal (amount.ts),
 * rounded once for display (docs/decisions/coin-as-asset.md, docs/decisions/money-display.md).
 */

/** A network's coin as the views name it; `named` is false where the profile says nothing. */
export interface CoinInfo {
  symbol: string
  decimals: number
  named: boolean
}

/** Where nothing is known: "coin", 18 decimals (the EVM convention, docs/decisions/money-display.md). */
export const UNNAMED_COIN: CoinInfo = { symbol: 'coin', decimals: 18, named: false }

export function coinInfo(network: { coin?: { symbol: string; decimals: number } } | null | undefined): CoinInfo {
  const c = network?.coin
  return c ? { symbol: c.symbol, decimals: c.decimals, named: true } : UNNAMED_COIN
}

/** A coin rate and the time of the transaction that carried it. */
export interface CoinRate {
  /** USD per whole coin, as the service wrote it. */
  rate: string
  /** The transaction's ISO time. */
  at: string
  atMs: number
}

/**
 * The coin's rate from the newest transaction that carries one (spec 2.3 `exchange_rate`, "at
 * the time of the transaction"): the balances answer has no coin rate. Null when none does.
 */
export function newestCoinRate(items: readonly Transaction[]): CoinRate | null {
  let best: CoinRate | null = null
  for (const tx of items) {
    const rate = tx.exchange_rate
    if (typeof rate !== 'string' || parseDecimalNumber(rate) === null || typeof tx.timestamp !== 'string') continue
    const atMs = Date.parse(tx.timestamp)
    if (Number.isNaN(atMs) || (best !== null && atMs <= best.atMs)) continue
    best = { rate, at: tx.timestamp, atMs }
  }
  return best
}

/** The coin's exact value at a rate, or null without one. */
export function coinValue(wei: bigint, coin: CoinInfo, rate: CoinRate | null): ScaledDecimal | null {
  return rate === null ? null : exactFiatValue(wei.toString(), String(coin.decimals), rate.rate)
}

/** "2025-01-03 00:54 UTC": when a rate was true, the same text on every screen and machine. */
function utcMinute(iso: string): string {
  const ms = Date.parse(iso)
  return Number.isNaN(ms) ? iso : `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

/** What a holdings total says of the coin: counted, or why not. */
export type CoinInTotal =
  { kind: 'included'; rate: CoinRate } | { kind: 'no-rate' } | { kind: 'no-balance' } | { kind: 'zero' }

export interface HoldingsTotal {
  /** Cents, rounded once from the exact sum; null when nothing has a value. */
  cents: bigint | null
  coin: CoinInTotal
  /** The line under the total: the rate it used and its time, or plainly what it leaves out. */
  note: string
}

/**
 * The holdings' total: the tokens' exact values and the coin's at its rate, summed, rounded
 * once. Never a total that leaves the coin out without saying so.
 */
export function holdingsTotal(o: {
  tokens: readonly (ScaledDecimal | null)[]
  coinWei: bigint | null
  coin: CoinInfo
  rate: CoinRate | null
}): HoldingsTotal {
  const parts = o.tokens.filter((p): p is ScaledDecimal => p !== null)
  let coin: CoinInTotal
  if (o.coinWei === null) coin = { kind: 'no-balance' }
  else if (o.coinWei === 0n) coin = { kind: 'zero' }
  else if (o.rate === null) coin = { kind: 'no-rate' }
  else {
    coin = { kind: 'included', rate: o.rate }
    parts.push(coinValue(o.coinWei, o.coin, o.rate)!)
  }
  const cents = parts.length ? roundScaled(sumScaled(parts)) : null
  return { cents, coin, note: coinNote(coin, o.coin.symbol) }
}

function coinNote(c: CoinInTotal, symbol: string): string {
  switch (c.kind) {
    case 'included':
      return `Includes ${symbol} at $${formatFiat(rateCents(c.rate.rate))}, rate as of ${utcMinute(c.rate.at)} (from its newest transaction)`
    case 'no-rate':
      return `Total excludes ${symbol}: no rate known`
    case 'no-balance':
      return `Total excludes ${symbol}: its balance is not known yet`
    case 'zero':
      return `No ${symbol} held`
  }
}

/** A rate as cents for display ("2451.83" → 245183n), rounded half up. */
function rateCents(rate: string): bigint {
  const r = parseDecimalNumber(rate)
  return r === null ? 0n : roundScaled(r)
}

/** "$1,234.56", or "<$0.01" for a value that rounds to nothing but is not nothing. */
function usdText(value: ScaledDecimal): string {
  const cents = roundScaled(value)
  return cents === 0n && value.units > 0n ? '<$0.01' : `$${formatFiat(cents)}`
}

/** What one asset did over a set of transactions, from the address's side. */
export interface AssetSums {
  /** `NATIVE` or the lowercase token contract. */
  asset: string
  symbol: string
  decimals: number | null
  /** Smallest units received from others. */
  in: bigint
  /** Smallest units sent to others. */
  out: bigint
  /** Transactions in which it moved to or from the address. */
  txs: number
}

export interface SumsPerAsset {
  assets: AssetSums[]
  /** Transactions that list only their first token transfers: their sums may be short. */
  cut: number
}

/**
 * Sums in and out per asset (coin first, then tokens by symbol) over `items`, as seen by
 * `address`: what others sent it and what it sent others. A self-transfer is neither; a failed
 * transaction moved nothing; fees are not counted (they are not a movement; docs/decisions/coin-as-asset.md).
 */
export function sumsPerAsset(items: readonly Transaction[], address: string, coin: CoinInfo): SumsPerAsset {
  const me = address.toLowerCase()
  const byAsset = new Map<string, AssetSums>()
  let cut = 0
  for (const tx of items) {
    const m = movementsOf(tx)
    if (m.overflow) cut++
    const seen = new Set<string>()
    for (const mv of m.movements) {
      const inbound = mv.to === me && mv.from !== me
      const outbound = mv.from === me && mv.to !== me
      if (mv.value === 0n || (!inbound && !outbound)) continue
      let s = byAsset.get(mv.asset)
      if (!s) {
        const native = mv.asset === NATIVE
        s = {
          asset: mv.asset,
          symbol: native ? coin.symbol : mv.symbol,
          decimals: native ? coin.decimals : mv.decimals,
          in: 0n,
          out: 0n,
          txs: 0,
        }
        byAsset.set(mv.asset, s)
      }
      if (inbound) s.in += mv.value
      else s.out += mv.value
      if (!seen.has(mv.asset)) {
        seen.add(mv.asset)
        s.txs++
      }
    }
  }
  const assets = [...byAsset.values()].sort((a, b) =>
    a.asset === NATIVE
      ? -1
      : b.asset === NATIVE
        ? 1
        : a.symbol.localeCompare(b.symbol) || a.asset.localeCompare(b.asset),
  )
  return { assets, cut }
}

/** How much of one asset a transaction moved to or from the address (both ways added), or null when none did. */
export function movedOf(
  tx: Transaction,
  o: { address: string; asset: string; coin: CoinInfo },
): { value: bigint; decimals: number | null; symbol: string } | null {
  const me = o.address.toLowerCase()
  let value = 0n
  let hit: { decimals: number | null; symbol: string } | null = null
  for (const mv of movementsOf(tx).movements) {
    if (mv.asset !== o.asset || (mv.from !== me && mv.to !== me)) continue
    hit ??= mv.asset === NATIVE ? { decimals: o.coin.decimals, symbol: o.coin.symbol } : mv
    value += mv.value
  }
  return hit ? { value, decimals: hit.decimals, symbol: hit.symbol } : null
}

/**
 * Today's rate per token (lowercase contract → USD per whole token): the balances answer's,
 * else the newest one a loaded transfer's token object carries. Rates are the service's.
 */
export function tokenRates(
  balances: readonly { token: { address: string; exchange_rate?: string | null } }[],
  txs: readonly Transaction[],
): Map<string, string> {
  const rates = new Map<string, string>()
  // Newest first (the list's order), so the first rate seen for a token is its newest.
  for (const tx of txs)
    for (const t of tx.token_transfers ?? []) {
      const key = t.token.address.toLowerCase()
      const rate = t.token.exchange_rate
      if (!rates.has(key) && typeof rate === 'string' && parseDecimalNumber(rate)) rates.set(key, rate)
    }
  for (const b of balances) {
    const rate = b.token.exchange_rate
    if (typeof rate === 'string' && parseDecimalNumber(rate)) rates.set(b.token.address.toLowerCase(), rate)
  }
  return rates
}

/** The rates the views value amounts with: the coin's (with its time) and each token's. */
export interface Rates {
  coin: CoinRate | null
  tokens: ReadonlyMap<string, string>
}

/** An asset's rate: `NATIVE` takes the coin's, a token its own; null when none is known. */
function rateOf(rates: Rates, asset: string): string | null {
  return asset === NATIVE ? (rates.coin?.rate ?? null) : (rates.tokens.get(asset.toLowerCase()) ?? null)
}

/** "$1,234.56" for an amount of an asset, or null when no rate (or no decimals) is known. */
export function usdOf(value: bigint, o: { asset: string; decimals: number | null; rates: Rates }): string | null {
  const rate = rateOf(o.rates, o.asset)
  if (rate === null || o.decimals === null) return null
  const v = exactFiatValue(value.toString(), String(o.decimals), rate)
  return v === null ? null : usdText(v)
}

/** The line that says which rates the USD beside amounts come from. */
export function ratesNote(rates: Rates, coin: CoinInfo): string {
  const c = rates.coin
  const coinPart = c
    ? `${coin.symbol} at $${formatFiat(rateCents(c.rate))} as of ${utcMinute(c.at)}`
    : `${coin.symbol}: no rate known`
  return `USD at the latest rates known: ${coinPart}; tokens at the service's rate where it gives one (— where none).`
}

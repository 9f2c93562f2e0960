import { describe, expect, it } from 'vitest'
import { transactionsResponseSchema, type Transaction } from './service-schemas'
import { readFixture } from '../testing/blockscout-fixtures'
import { exactFiatValue, formatUnits, roundScaled } from './amount'
import { NATIVE } from './movements'
import {
  coinInfo,
  coinValue,
  holdingsTotal,
  movedOf,
  newestCoinRate,
  ratesNote,
  sumsPerAsset,
  tokenRates,
  UNNAMED_COIN,
  type Rates,
  usdOf,
} from './money'

const NO_RATES: Rates = { coin: null, tokens: new Map() }

/** The Blockscout-written items, read by the app's schema, by fixture id. */
const file = readFixture('transactions')
const parsed = transactionsResponseSchema.parse({ items: file.items.map((i) => i.item), next_page_params: null })
const ME = file.address.toLowerCase()
const byId = new Map(file.items.map((i, n) => [i.id, parsed.items[n]!] as const))
const ALPHA = { symbol: 'ALPHA', decimals: 18, named: true }
const ARIA = '0x55d536e4d6c1993d8ef2e2a4ef77f02088419420'
const E18 = 10n ** 18n

describe('the coin as an asset', () => {
  it('is named by the profile, else "coin" with 18 decimals', () => {
    expect(coinInfo({ coin: { symbol: 'ETH', decimals: 18 } })).toEqual({ symbol: 'ETH', decimals: 18, named: true })
    expect(coinInfo({})).toBe(UNNAMED_COIN)
    expect(coinInfo(null)).toEqual({ symbol: 'coin', decimals: 18, named: false })
  })

  it("takes the newest transaction's rate, with its time; a pending one (no time) gives none", () => {
    // Hand check: the fixture's newest dated item is "TX" (2022-11-11, 1828.71); the others are
    // of 2022-10-10 at 0.00254428, and "pending" has a rate but no time.
    const r = newestCoinRate(parsed.items)
    expect(r).toMatchObject({ rate: '1828.71', at: '2022-11-11T11:11:11.000000Z' })
    expect(newestCoinRate([byId.get('pending')!])).toBeNull()
    expect(newestCoinRate([])).toBeNull()
    const noRate: Transaction = { ...byId.get('TX')!, exchange_rate: null }
    expect(newestCoinRate([noRate, byId.get('base')!])).toMatchObject({ rate: '0.00254428' })
  })

  it('values the coin exactly: 999,355.9 coin at 2451.83 is $2,450,250,776.30', () => {
    // 999,355.9 × 2451.83 = 2,450,250,776.297, rounded half up to cents once.
    const wei = 9_993_559n * 10n ** 17n
    const v = coinValue(wei, ALPHA, { rate: '2451.83', at: '2025-01-03T00:00:00.000000Z', atMs: 0 })!
    expect(v).toEqual({ units: 2_450_250_776_297n * 10n ** 17n, scale: 20 })
    expect(roundScaled(v)).toBe(245_025_077_630n)
    expect(coinValue(wei, ALPHA, null)).toBeNull()
  })

  it('a total with a rate includes the coin and says the rate and its time', () => {
    const rate = newestCoinRate(parsed.items)!
    const t = holdingsTotal({
      tokens: [exactFiatValue('1500000', '6', '1.0003'), null],
      coinWei: 2n * E18,
      coin: ALPHA,
      rate,
    })
    // 1.5 × 1.0003 = 1.50045; 2 × 1828.71 = 3657.42; sum 3658.92045 → $3,658.92
    expect(t.cents).toBe(365_892n)
    expect(t.coin.kind).toBe('included')
    expect(t.note).toBe('Includes ALPHA at $1,828.71, rate as of 2022-11-11 11:11 UTC (from its newest transaction)')
  })

  it('a total without a rate says plainly that it leaves the coin out', () => {
    const t = holdingsTotal({
      tokens: [exactFiatValue('1500000', '6', '1.0003')],
      coinWei: 5n * E18,
      coin: ALPHA,
      rate: null,
    })
    expect(t.cents).toBe(150n)
    expect(t.note).toBe('Total excludes ALPHA: no rate known')
    const unknown = holdingsTotal({ tokens: [], coinWei: null, coin: UNNAMED_COIN, rate: null })
    expect(unknown.cents).toBeNull()
    expect(unknown.note).toBe('Total excludes coin: its balance is not known yet')
    expect(holdingsTotal({ tokens: [], coinWei: 0n, coin: ALPHA, rate: null }).note).toBe('No ALPHA held')
  })
})

describe('sums per asset over a set of transactions', () => {
  it('the whole Blockscout page, by hand', () => {
    // Coin in: 13 successful items of 42 sent to the address by others, and "TX" of 42.00042
    // = 588.00042. Failed items (2) moved nothing; "pending" sends 0; base2/base3 are sent by the
    // address to itself (neither way). Coin out: the contract creation, 42. ARIA: one transfer
    // out of 0.03156737370313035, in the item whose transfers are cut.
    const s = sumsPerAsset(parsed.items, ME, ALPHA)
    expect(s.cut).toBe(1)
    expect(
      s.assets.map((a) => [a.asset, a.symbol, formatUnits(a.in, a.decimals!), formatUnits(a.out, a.decimals!), a.txs]),
    ).toEqual([
      [NATIVE, 'ALPHA', '588.00042', '42', 15],
      [ARIA, 'ARIA', '0', '0.03156737370313035', 1],
    ])
  })

  it('a filtered set: the ARIA transaction alone', () => {
    const s = sumsPerAsset([byId.get('withTokenTransfer')!], ME, UNNAMED_COIN)
    expect(s.assets).toEqual([
      { asset: NATIVE, symbol: 'coin', decimals: 18, in: 42n * E18, out: 0n, txs: 1 },
      { asset: ARIA, symbol: 'ARIA', decimals: 18, in: 0n, out: 31_567_373_703_130_350n, txs: 1 },
    ])
  })

  it('nothing moved: no rows', () => {
    expect(sumsPerAsset([byId.get('withDecodedRevertReason')!, byId.get('base2')!], ME, ALPHA).assets).toEqual([])
  })

  it("a row filtered by a token shows that token's amount moved, not the coin's value", () => {
    const tx = byId.get('withTokenTransfer')!
    expect(movedOf(tx, { address: ME, asset: ARIA, coin: ALPHA })).toEqual({
      value: 31_567_373_703_130_350n,
      decimals: 18,
      symbol: 'ARIA',
    })
    expect(movedOf(tx, { address: ME, asset: NATIVE, coin: ALPHA })).toEqual({
      value: 42n * E18,
      decimals: 18,
      symbol: 'ALPHA',
    })
    expect(movedOf(byId.get('base')!, { address: ME, asset: ARIA, coin: ALPHA })).toBeNull()
  })
})

describe('USD beside amounts', () => {
  it("takes a token's rate from the balances answer, else from its newest transfer", () => {
    const tx = byId.get('withTokenTransfer')!
    // ARIA's transfer carries 42; the fixture's other tokens carry none.
    expect([...tokenRates([], [tx])]).toEqual([[ARIA, '42']])
    // The balances answer wins over a transfer's token object (addresses in any case).
    const upper = `0x${ARIA.slice(2).toUpperCase()}`
    expect(tokenRates([{ token: { address: upper, exchange_rate: '3.5' } }], [tx]).get(ARIA)).toBe('3.5')
    expect(tokenRates([{ token: { address: ARIA, exchange_rate: 'not a rate' } }], []).has(ARIA)).toBe(false)
  })

  it('values an amount where a rate is known, says "<$0.01" for dust, and nothing without a rate', () => {
    const rates = { coin: newestCoinRate(parsed.items), tokens: new Map([[ARIA, '2']]) }
    expect(usdOf(2n * E18, { asset: NATIVE, decimals: 18, rates })).toBe('$3,657.42')
    expect(usdOf(31_567_373_703_130_350n, { asset: ARIA, decimals: 18, rates })).toBe('$0.06')
    expect(usdOf(1n, { asset: ARIA, decimals: 18, rates })).toBe('<$0.01')
    expect(usdOf(1n, { asset: ARIA, decimals: null, rates })).toBeNull()
    expect(usdOf(E18, { asset: NATIVE, decimals: 18, rates: NO_RATES })).toBeNull()
    expect(ratesNote(rates, ALPHA)).toBe(
      "USD at the latest rates known: ALPHA at $1,828.71 as of 2022-11-11 11:11 UTC; tokens at the service's rate where it gives one (— where none).",
    )
    expect(ratesNote(NO_RATES, UNNAMED_COIN)).toContain('coin: no rate known')
  })
})

import { describe, expect, it } from 'vitest'
import { makeBalance } from '../../testing/samples'
import { allocation, filterRows, sortRows, toBalanceRow, totalFiat } from './balance-rows'

const items = [
  makeBalance('USDC', '2500000', '6', { rate: '1.00' }), // 2.5 → $2.50
  makeBalance('WETH', '1500000000000000000', '18', { rate: '2000.5' }), // 1.5 → $3000.75
  makeBalance('GLD', '7', '0'), // no rate
  makeBalance('ZERO', '0', '18', { rate: '5' }),
  makeBalance('NFT', '1', null, { type: 'ERC-721', tokenId: '42' }),
]
const rows = items.map(toBalanceRow)

describe('balance rows', () => {
  it('formats amounts exactly and computes fiat in cents', () => {
    expect(rows[0]!.amount.text).toBe('2.5')
    expect(rows[0]!.fiatCents).toBe(250n)
    expect(rows[1]!.amount.text).toBe('1.5')
    expect(rows[1]!.fiatCents).toBe(300075n)
    expect(rows[2]!.fiatCents).toBeNull()
    expect(rows[4]!.tokenId).toBe('42')
    expect(rows[4]!.amount.text).toBe('1')
  })

  it('gives null names and symbols a stand-in and an unparsable value "unknown"', () => {
    const base = makeBalance('A', 'x', '18')
    const bad = toBalanceRow({ ...base, token: { ...base.token, name: null, symbol: null, exchange_rate: '2' } }, 0)
    expect(bad.amount.known).toBe(false)
    expect(bad.amount.text).toBe('unknown')
    expect(bad.name).toBe('Unnamed token')
    expect(bad.symbol).toBe('—')
    expect(bad.fiatCents).toBeNull()
  })

  it('only keeps https icon URLs', () => {
    expect(toBalanceRow(makeBalance('A', '1', '0', { icon: 'https://x/a.png' }), 0).iconUrl).toBe('https://x/a.png')
    expect(toBalanceRow(makeBalance('A', '1', '0', { icon: 'http://x/a.png' }), 0).iconUrl).toBeNull()
    expect(toBalanceRow(makeBalance('A', '1', '0', { icon: 'javascript:alert(1)' }), 0).iconUrl).toBeNull()
  })

  it('filters by type, zero and text', () => {
    expect(filterRows(rows, { type: 'all', hideZero: true, query: '' }).map((r) => r.symbol)).toEqual([
      'USDC',
      'WETH',
      'GLD',
      'NFT',
    ])
    expect(filterRows(rows, { type: 'ERC-721', hideZero: false, query: '' }).map((r) => r.symbol)).toEqual(['NFT'])
    expect(filterRows(rows, { type: 'all', hideZero: false, query: 'weth' }).map((r) => r.symbol)).toEqual(['WETH'])
  })

  it('sorts by amount across decimals and by fiat with unknowns last', () => {
    expect(sortRows(rows, 'amount', 'desc').map((r) => r.symbol)).toEqual(['GLD', 'USDC', 'WETH', 'NFT', 'ZERO'])
    expect(
      sortRows(rows, 'fiat', 'desc')
        .map((r) => r.symbol)
        .slice(0, 3),
    ).toEqual(['WETH', 'USDC', 'ZERO'])
    expect(
      sortRows(rows, 'fiat', 'asc')
        .map((r) => r.symbol)
        .slice(-2)
        .sort(),
    ).toEqual(['GLD', 'NFT'])
    expect(sortRows(rows, 'symbol', 'asc').map((r) => r.symbol)).toEqual(['GLD', 'NFT', 'USDC', 'WETH', 'ZERO'])
  })

  it('totals the exact values and rounds once, not the rows rounded to cents', () => {
    const shown = [
      makeBalance('WETH', '500000000000000000000', '18', { rate: '2000.00' }), // $1,000,000.00
      makeBalance('USDC', '237839475000', '6', { rate: '1.00' }), // $237,839.475 → shown $237,839.48
      makeBalance('DUST', '5000', '6', { rate: '1.00' }), // $0.005 → shown $0.01
    ].map(toBalanceRow)
    expect(shown.map((r) => r.fiatCents)).toEqual([100_000_000n, 23_783_948n, 1n])
    // The rounded rows add up to $1,237,839.49; the exact sum is $1,237,839.480.
    expect(totalFiat(shown)).toBe(123_783_948n)
    // Rounding down accumulates too: three rows of $0.004 each show $0.00 but total $0.012 → $0.01.
    const crumbs = ['A', 'B', 'C'].map((s, i) => toBalanceRow(makeBalance(s, '4', '3', { rate: '1' }), i))
    expect(crumbs.map((r) => r.fiatCents)).toEqual([0n, 0n, 0n])
    expect(totalFiat(crumbs)).toBe(1n)
    // The allocation's "Other" slice is an exact sum too: $237,839.48, not $237,839.49.
    expect(allocation(shown, 1)).toEqual([
      { label: 'WETH', cents: 100_000_000n },
      { label: 'Other', cents: 23_783_948n },
    ])
  })

  it('builds the allocation and total exactly', () => {
    expect(totalFiat(rows)).toBe(250n + 300075n + 0n)
    expect(allocation(rows)).toEqual([
      { label: 'WETH', cents: 300075n },
      { label: 'USDC', cents: 250n },
    ])
    const many = Array.from({ length: 9 }, (_, i) =>
      toBalanceRow(makeBalance(`T${i}`, '1', '0', { rate: `${i + 1}` }), i),
    )
    const slices = allocation(many, 6)
    expect(slices).toHaveLength(7)
    expect(slices.at(-1)).toEqual({ label: 'Other', cents: 100n + 200n + 300n })
  })
})

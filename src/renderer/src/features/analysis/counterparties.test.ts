import { describe, expect, it } from 'vitest'
import { party } from '@shared/testing/service-samples'
import { counterparties, filterCounterparties, sortCounterparties } from './counterparties'
import { TOKENS, transfer, tx } from '../../testing/analysis-samples'
import { NATIVE } from '@shared/domain/movements'

const ME = '0x1111111111111111111111111111111111111111'
const BOB = '0x2222222222222222222222222222222222222222'
const DEX = '0x3333333333333333333333333333333333333333'
const ZERO = '0x0000000000000000000000000000000000000000'

describe('counterparties', () => {
  it('sums native and token amounts exactly (0, 6 and 18 decimals) per counterparty and direction', () => {
    const items = [
      tx(BOB, ME, { value: '1000000000000000001', minute: 1 }), // 1.000000000000000001 coin in
      tx(ME, BOB, { value: '999999999999999999', minute: 2 }),
      tx(ME, DEX, {
        minute: 3,
        to: party(DEX, { name: 'Dex Router' }),
        token_transfers: [
          transfer(TOKENS.usdc, ME, DEX, '1234567'),
          transfer(TOKENS.weth, DEX, ME, '123456789012345678901'),
          transfer(TOKENS.pts, DEX, ME, '7'),
        ],
      }),
      tx(BOB, DEX, { minute: 4, token_transfers: [transfer(TOKENS.usdc, BOB, ME, '1')] }), // only a token transfer names ME
      tx(ZERO, ME, {
        minute: 5,
        to: party(TOKENS.art.address),
        token_transfers: [transfer(TOKENS.art, ZERO, ME, { tokenId: '42' })],
      }),
    ]
    const s = counterparties(items, ME)
    const bob = s.rows.find((r) => r.address === BOB)!
    expect(bob).toMatchObject({
      txIn: 2,
      txOut: 1,
      nativeIn: 1000000000000000001n,
      nativeOut: 999999999999999999n,
      transfers: 1,
      failed: 0,
    })
    expect(bob.tokens).toEqual([{ token: TOKENS.usdc.address, symbol: 'USDC', decimals: 6, in: 1n, out: 0n }])
    expect(bob.firstSeenMs).toBe(Date.UTC(2026, 0, 1, 0, 1))
    expect(bob.lastSeenMs).toBe(Date.UTC(2026, 0, 1, 0, 4))
    const dex = s.rows.find((r) => r.address === DEX)!
    expect(dex).toMatchObject({ label: 'Dex Router', txIn: 1, txOut: 1, transfers: 3, nativeOut: 0n })
    expect(dex.tokens).toEqual([
      { token: TOKENS.usdc.address, symbol: 'USDC', decimals: 6, in: 0n, out: 1234567n },
      { token: TOKENS.weth.address, symbol: 'WETH', decimals: 18, in: 123456789012345678901n, out: 0n },
      { token: TOKENS.pts.address, symbol: 'PTS', decimals: 0, in: 7n, out: 0n },
    ])
    // A mint comes from the zero address; an NFT transfer moves one item.
    const zero = s.rows.find((r) => r.address === ZERO)!
    expect(zero.tokens).toEqual([{ token: TOKENS.art.address, symbol: 'ART', decimals: null, in: 1n, out: 0n }])
  })

  it('counts failed transactions but leaves their value out of every amount', () => {
    const s = counterparties(
      [
        tx(ME, BOB, {
          value: '5',
          status: 'error',
          result: 'execution reverted',
          token_transfers: [transfer(TOKENS.usdc, ME, BOB, '9')],
        }),
        tx(ME, BOB, { value: '3' }),
      ],
      ME,
    )
    expect(s.failed).toBe(1)
    expect(s.rows).toHaveLength(1)
    expect(s.rows[0]).toMatchObject({ txOut: 2, failed: 1, nativeOut: 3n, transfers: 1 })
    expect(s.rows[0]!.tokens).toEqual([])
  })

  it('treats self-transfers as no counterparty, counted apart', () => {
    const s = counterparties(
      [tx(ME, ME, { value: '10' }), tx(BOB, DEX, { token_transfers: [transfer(TOKENS.usdc, ME, ME, '4')] })],
      ME,
    )
    expect(s.rows).toEqual([])
    expect(s.selfTransfers).toBe(2)
  })

  it('with a token, sums only that token (or only the coin) of the transactions that moved it', () => {
    const items = [
      // One swap moves USDC out and WETH in with the same counterparty, and some coin too.
      tx(ME, DEX, {
        value: '3',
        token_transfers: [transfer(TOKENS.usdc, ME, DEX, '100'), transfer(TOKENS.weth, DEX, ME, '7')],
      }),
      tx(BOB, ME, { token_transfers: [transfer(TOKENS.usdc, BOB, ME, '5')] }),
      tx(BOB, ME, { value: '9' }),
    ]
    const usdc = counterparties(items, ME, TOKENS.usdc.address)
    const dex = usdc.rows.find((r) => r.address === DEX)!
    expect(dex.tokens).toEqual([expect.objectContaining({ token: TOKENS.usdc.address, in: 0n, out: 100n })])
    expect(dex).toMatchObject({ nativeOut: 0n, transfers: 1, txOut: 1, txIn: 0 })
    const bob = usdc.rows.find((r) => r.address === BOB)!
    expect(bob).toMatchObject({ txIn: 1, nativeIn: 0n, transfers: 1 })
    expect(bob.tokens).toEqual([expect.objectContaining({ token: TOKENS.usdc.address, in: 5n })])

    // The coin filter keeps the transactions that move coin to or from the address.
    const coin = counterparties([items[0]!, items[2]!], ME, NATIVE)
    expect(coin.rows.find((r) => r.address === DEX)).toMatchObject({ nativeOut: 3n, tokens: [], transfers: 0 })
    expect(coin.rows.find((r) => r.address === BOB)).toMatchObject({ txIn: 1, nativeIn: 9n, tokens: [] })
    // Without a token every movement counts, as before.
    expect(counterparties(items, ME).rows.find((r) => r.address === DEX)!.tokens).toHaveLength(2)
  })

  it('notes overflowing items instead of guessing', () => {
    const s = counterparties(
      [tx(BOB, ME, { token_transfers: [transfer(TOKENS.usdc, BOB, ME, '5')], token_transfers_overflow: true })],
      ME,
    )
    expect(s).toMatchObject({ overflowed: 1 })
    expect(s.rows[0]!.txIn).toBe(1)
  })

  it('sorts by count, value or time and filters by address, label or symbol', () => {
    const s = counterparties(
      [
        tx(BOB, ME, { value: '1' }),
        tx(DEX, ME, { value: '5', to: party(ME), from: party(DEX, { ens_domain_name: 'dex.eth' }) }),
        tx(DEX, ME, { value: '0' }),
      ],
      ME,
    )
    expect(sortCounterparties(s.rows, 'txs', 'desc').map((r) => r.address)).toEqual([DEX, BOB])
    expect(sortCounterparties(s.rows, 'native', 'asc').map((r) => r.address)).toEqual([BOB, DEX])
    expect(filterCounterparties(s.rows, 'DEX.E', (c) => c.label).map((r) => r.address)).toEqual([DEX])
    expect(filterCounterparties(s.rows, '0x2222', (c) => c.label).map((r) => r.address)).toEqual([BOB])
  })

  it('labels a counterparty by its name as shown: an address-like name is marked, bidi controls go', () => {
    const EVE = '0x5555555555555555555555555555555555555555'
    const items = [
      tx(EVE, ME, { minute: 1, from: party(EVE, { name: '0x2222…2222' }) }),
      tx(DEX, ME, { minute: 2, from: party(DEX, { ens_domain_name: 'dex\u202Ehte.' }) }),
    ]
    const rows = counterparties(items, ME).rows
    expect(rows.find((r) => r.address === EVE)!.label).toBe('name “0x2222…2222”')
    expect(rows.find((r) => r.address === DEX)!.label).toBe('dexhte.')
  })
})

import { describe, expect, it } from 'vitest'
import { makeBalance } from '@shared/testing/service-samples'
import { NATIVE } from '@shared/domain/movements'
import { assetsFromBalances, balanceHistory } from './balance-history'
import { TOKENS, transfer, tx } from '../../testing/analysis-samples'

const ME = '0x1111111111111111111111111111111111111111'
const BOB = '0x2222222222222222222222222222222222222222'
const NOW = Date.UTC(2026, 0, 2)
const at = (minute: number): number => Date.UTC(2026, 0, 1) + minute * 60_000

describe('balance history', () => {
  it('walks back from today exactly: native value and fee (fee even when failed), tokens with 0, 6 and 18 decimals', () => {
    const items = [
      tx(BOB, ME, { value: '1000000000000000000', minute: 1 }),
      tx(ME, BOB, {
        value: '250000000000000000',
        fee: { type: 'actual', value: '21000' },
        minute: 2,
        token_transfers: [transfer(TOKENS.usdc, ME, BOB, '1500000')],
      }),
      tx(ME, BOB, {
        value: '7',
        fee: { type: 'actual', value: '30000' },
        status: 'error',
        result: 'execution reverted',
        minute: 3,
        token_transfers: [transfer(TOKENS.usdc, ME, BOB, '999')],
      }),
      tx(BOB, ME, {
        minute: 4,
        token_transfers: [transfer(TOKENS.weth, BOB, ME, '123456789012345678901'), transfer(TOKENS.pts, BOB, ME, '3')],
      }),
    ]
    const now = [
      { key: NATIVE, symbol: 'coin', decimals: 18, value: 750000000000000000n - 51000n + 5n },
      { key: TOKENS.usdc.address, symbol: 'USDC', decimals: 6, value: 2500000n },
      { key: TOKENS.weth.address, symbol: 'WETH', decimals: 18, value: 123456789012345678901n },
      { key: TOKENS.pts.address, symbol: 'PTS', decimals: 0, value: 10n },
    ]
    const h = balanceHistory(items, ME, now, NOW)
    const of = (key: string) => h.assets.find((a) => a.key === key)!
    expect(of(NATIVE).points).toEqual([
      { ms: at(1) - 1, value: 5n },
      { ms: at(1), value: 1000000000000000005n },
      { ms: at(2), value: 750000000000000000n - 21000n + 5n },
      { ms: at(3), value: 750000000000000000n - 51000n + 5n },
      { ms: NOW, value: 750000000000000000n - 51000n + 5n },
    ])
    expect(of(TOKENS.usdc.address).points.map((p) => p.value)).toEqual([4000000n, 2500000n, 2500000n])
    expect(of(TOKENS.weth.address).points.map((p) => p.value)).toEqual([
      0n,
      123456789012345678901n,
      123456789012345678901n,
    ])
    expect(of(TOKENS.pts.address).points.map((p) => p.value)).toEqual([7n, 10n, 10n])
    expect(h.completeFromMs).toBe(at(1))
    expect(h.assets.every((a) => !a.inconsistent)).toBe(true)
  })

  it('a self-transfer costs only its fee; a token sent to oneself changes nothing', () => {
    const h = balanceHistory(
      [
        tx(ME, ME, {
          value: '100',
          fee: { type: 'actual', value: '2' },
          token_transfers: [transfer(TOKENS.usdc, ME, ME, '5')],
        }),
      ],
      ME,
      [
        { key: NATIVE, symbol: 'coin', decimals: 18, value: 10n },
        { key: TOKENS.usdc.address, symbol: 'USDC', decimals: 6, value: 5n },
      ],
      NOW,
    )
    expect(h.assets.find((a) => a.key === NATIVE)!.points.map((p) => p.value)).toEqual([12n, 10n, 10n])
    expect(h.assets.find((a) => a.key === TOKENS.usdc.address)!.points.map((p) => p.value)).toEqual([5n, 5n, 5n])
  })

  it('adds tokens no longer held at zero today, and marks a history that cannot be right', () => {
    const h = balanceHistory(
      [tx(BOB, ME, { token_transfers: [transfer(TOKENS.usdc, ME, BOB, '5')] }), tx(BOB, ME, { value: '9' })],
      ME,
      [{ key: NATIVE, symbol: 'coin', decimals: 18, value: 1n }],
      NOW,
    )
    expect(h.assets.find((a) => a.key === TOKENS.usdc.address)).toMatchObject({ today: 0n, inconsistent: false })
    expect(h.assets.find((a) => a.key === NATIVE)).toMatchObject({ inconsistent: true })
  })

  it('sums NFT items to a count and reads today from balances', () => {
    const nft = (id: string) => ({
      ...makeBalance('ART', '1', null, { type: 'ERC-721', tokenId: id }),
      token: { ...makeBalance('ART', '1', null).token, address: TOKENS.art.address },
    })
    expect(assetsFromBalances([nft('1'), nft('2'), makeBalance('USDC', '1500000', '6')])).toEqual([
      { key: TOKENS.art.address, symbol: 'ART', decimals: null, value: 2n },
      expect.objectContaining({ symbol: 'USDC', decimals: 6, value: 1500000n }),
    ])
  })
})

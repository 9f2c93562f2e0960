import { describe, expect, it } from 'vitest'
import { makeTx, ME, party } from '../../testing/samples'
import { coin, confirmationRange, decodedInputView, gasUsage, transferViews } from './tx-detail'

describe('transaction detail helpers', () => {
  it('reads fees, ranges and transfers', () => {
    expect(coin('21000000000000')).toEqual({ text: '0.000021', wei: '21000000000000' })
    expect(coin('bad').text).toBe('unknown')
    expect(gasUsage('21000', '42000')).toBe('21,000 of 42,000 (50.00 %)')
    expect(confirmationRange([100, 2300])).toBe('between 100 ms and 2.30 s')
    expect(confirmationRange([])).toBe('not yet confirmed')
    expect(confirmationRange([5000])).toBe('5.00 s')
    const token = {
      address: '0x00000000000000000000000000000000000000ab',
      symbol: 'USDC',
      name: 'USD Coin',
      decimals: '6',
      type: 'ERC-20',
    }
    const tx = makeTx(0, {
      token_transfers: [
        { from: party(ME), to: party(ME), token, total: { value: '1500000', decimals: '6' }, type: 'token_transfer' },
        {
          from: party(ME),
          to: party(ME),
          token: { ...token, symbol: null, name: null, decimals: null, type: 'ERC-721' },
          total: { token_id: '7' },
          type: 'token_transfer',
        },
      ],
    })
    expect(transferViews(tx)[0]).toMatchObject({ token: 'USDC', amount: '1.5', type: 'ERC-20' })
    expect(transferViews(tx)[1]).toMatchObject({ token: '0x0000…00ab', amount: '1', tokenId: '7', type: 'ERC-721' })
    expect(transferViews(makeTx(0, { token_transfers: null }))).toEqual([])
    expect(
      decodedInputView({
        method_call: 'transfer(address to, uint256 value)',
        parameters: [{ name: 'to', type: 'address', value: ME }],
      }),
    ).toEqual({
      call: 'transfer(address to, uint256 value)',
      params: [{ name: 'to', type: 'address', value: ME }],
    })
    expect(decodedInputView(null)).toBeNull()
  })
})

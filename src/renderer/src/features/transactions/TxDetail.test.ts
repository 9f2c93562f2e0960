import { beforeEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { makeTx, ME, party } from '../../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import TxDetail from './TxDetail.vue'

describe('TxDetail', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
  })

  it('shows every field of spec 2.3 with copy buttons', async () => {
    const tx = makeTx(3, {
      method: 'transfer',
      revert_reason: 'ERC20: transfer amount exceeds balance',
      status: 'error',
      result: 'Reverted',
      decoded_input: {
        method_call: 'transfer(address to, uint256 value)',
        parameters: [
          { name: 'to', type: 'address', value: ME },
          { name: 'value', type: 'uint256', value: '100' },
        ],
      },
      token_transfers: [
        {
          from: party(ME),
          to: party(ME),
          token: {
            address: '0x00000000000000000000000000000000000000ab',
            name: 'USD Coin',
            symbol: 'USDC',
            decimals: '6',
            type: 'ERC-20',
          },
          total: { value: '2500000', decimals: '6' },
          type: 'token_transfer',
        },
      ],
      token_transfers_overflow: true,
      raw_input: '0xa9059cbb',
      tx_tag: 'payroll',
      exchange_rate: '2000',
      has_error_in_internal_txs: true,
      actions: [{ type: 'mint', data: {} }],
      created_contract: null,
      to: party('0x3333333333333333333333333333333333333333', {
        name: 'Token',
        is_contract: true,
        is_verified: true,
        proxy_type: 'eip1967',
        public_tags: [{ label: 'stablecoin' }],
      }),
    })
    const w = mountWith(TxDetail, t, { props: { tx, address: ME } })
    await flushPromises()
    const text = document.body.textContent ?? ''
    for (const piece of [
      'Transaction details',
      tx.hash,
      'Failed: Reverted',
      'ERC20: transfer amount exceeds balance',
      'Position in block',
      'Confirmations',
      'between 0 ms and 2.00 s',
      'coin_transfer',
      'payroll',
      'Yes: an internal call failed',
      'Token',
      'verified',
      'proxy: eip1967',
      'stablecoin',
      '1.5',
      '(1500000000000000000 wei)',
      '≈ $3,000.00 at the time',
      'Fee (actual)',
      '0.000021',
      '21,000 of 21,000 (100.00 %)',
      '1 gwei',
      '2 gwei',
      '0.001 gwei',
      'transfer(address to, uint256 value)',
      'USDC',
      '2.5',
      'more transfers (or errors) than listed',
      'mint',
      '0xa9059cbb',
      '(4 bytes)',
    ]) {
      expect(text, piece).toContain(piece)
    }
    const copyLabels = [...document.body.querySelectorAll('button[aria-label^="Copy "]')].map((b) =>
      b.getAttribute('aria-label'),
    )
    for (const label of [
      'Copy hash',
      'Copy revert reason',
      'Copy block number',
      'Copy sender address',
      'Copy recipient address',
      'Copy value in wei',
      'Copy fee in wei',
      'Copy method call',
      'Copy raw input',
      'Copy transaction as JSON',
    ]) {
      expect(copyLabels).toContain(label)
    }
    w.unmount()
  })

  it('shows a pending transaction as pending, never failed', async () => {
    const tx = makeTx(1, {
      block: null,
      timestamp: null,
      status: null,
      result: 'pending',
      gas_used: null,
      position: null,
      type: null,
      confirmation_duration: [],
      priority_fee: null,
      tx_burnt_fee: null,
      base_fee_per_gas: null,
      to: null,
    })
    const w = mountWith(TxDetail, t, { props: { tx, address: ME } })
    await flushPromises()
    const text = document.body.textContent ?? ''
    expect(text).toContain('Pending')
    expect(text).toContain('pending (not in a block yet)')
    expect(text).toContain('not yet confirmed')
    expect(text).toContain('none (contract creation)')
    expect(text).not.toContain('Failed')
    w.unmount()
  })
})

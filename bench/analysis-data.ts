import { createHash } from 'node:crypto'
import type { Transaction } from '@shared/domain/service-schemas'
import { party } from '@shared/testing/service-samples'
import { approveInput } from './analysis-approvals'

/**
 * bench:analysis's generated transactions: hashes, addresses, tokens and methods spread like
 * real ones, a sixth of them the owner's approve calls (the approvals view finds them).
 */

/** Hashes and addresses spread like real ones (a shared prefix would make every prefix search match everything). */
export const hex = (n: number, width: number): string =>
  `0x${createHash('sha256').update(String(n)).digest('hex').slice(0, width)}`
export const addr = (n: number): string => hex(n, 40)
export const ME = addr(0xabcdef)
export const TOKENS = [
  { address: addr(0xc0), symbol: 'USDC', name: 'USD Coin', decimals: '6', type: 'ERC-20' },
  { address: addr(0xc1), symbol: 'WETH', name: 'Wrapped Ether', decimals: '18', type: 'ERC-20' },
  { address: addr(0xc2), symbol: 'ART', name: 'Sandbox Art', decimals: null, type: 'ERC-721' },
]
export const METHODS = ['transfer', 'approve', 'swapExactTokensForTokens', 'multicall', 'deposit', null]

export function makeTx(i: number, owner: string): Transaction {
  const other = addr(1 + (i % 1000))
  // The approve calls are the owner's own (to a token, `other`): the approvals view finds them.
  const approve = METHODS[i % METHODS.length] === 'approve'
  const out = i % 2 === 0 || approve
  const self = i % 97 === 0
  const failed = i % 20 === 7
  const token = TOKENS[i % 3]!
  const transfers =
    i % 3 === 0
      ? [
          {
            from: party(out ? owner : other),
            to: party(out ? other : owner),
            token,
            total:
              token.decimals === null
                ? { token_id: String(i) }
                : { value: String(1_000_000 + i * 7919), decimals: token.decimals },
            type: 'token_transfer',
          },
        ]
      : null
  return {
    actions: [],
    base_fee_per_gas: '1000000000',
    block: 10_000_000 - i,
    confirmation_duration: [0, 2000],
    confirmations: i + 1,
    created_contract: null,
    decoded_input: null,
    exchange_rate: null,
    fee: { type: 'actual', value: String(21_000_000_000_000 + i) },
    from: party(self || out ? owner : other, { name: out ? null : `Desk ${i % 50}` }),
    to: party(self || !out ? owner : other),
    gas_limit: '21000',
    gas_price: '1000000000',
    gas_used: '21000',
    has_error_in_internal_txs: false,
    hash: hex(-1 - i, 64),
    max_fee_per_gas: null,
    max_priority_fee_per_gas: null,
    method: METHODS[i % METHODS.length]!,
    nonce: i,
    position: i % 100,
    priority_fee: '0',
    raw_input: approve ? approveInput(i) : '0x',
    result: failed ? 'execution reverted' : 'success',
    revert_reason: null,
    status: failed ? 'error' : 'ok',
    timestamp: new Date(Date.UTC(2026, 0, 1) - i * 60_000).toISOString().replace('Z', '000Z'),
    token_transfers: transfers,
    token_transfers_overflow: transfers ? false : null,
    tx_burnt_fee: '0',
    tx_tag: null,
    tx_types: ['coin_transfer'],
    type: 2,
    value: String(10n ** 17n + BigInt(i)),
  }
}

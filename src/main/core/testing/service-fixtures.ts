import { SPEC_LIMITS, type Profile } from '@shared/domain/profile'
import type { BalanceItem, Transaction } from '@shared/domain/service-schemas'
import { makeBalance, makeTx } from '@shared/testing/service-samples'

/** Spec-shaped answers (sections 2.1-2.5) for tests that script a server. Test support only. */

export function balanceItem(value = '1000000000000000000'): BalanceItem {
  const item = makeBalance('DMO', value, '18', { rate: '1.5' })
  // Fields the spec does not list must pass the response schema untouched.
  return { ...item, token: { ...item.token, some_future_field: { tolerated: true } } }
}

export function transaction(i: number, block: number, confirmations: number): Transaction {
  return makeTx(i, { block, confirmations, value: '1' })
}

export function nextPage(last: Transaction) {
  return {
    api_key: '',
    apikey: '',
    block_number: last.block,
    fee: last.fee.value,
    hash: last.hash,
    index: last.position,
    inserted_at: '2024-01-01T00:00:00.000000Z',
    items_count: 50,
    value: last.value,
  }
}

/** A service profile `p` at `baseUrl` (its RPC endpoint at `/rpc`), networks alpha and beta. */
export function serviceProfile(baseUrl: string): Profile {
  return {
    id: 'p',
    name: 'P',
    kind: 'service',
    baseUrl,
    rpcUrl: `${baseUrl}/rpc`,
    networks: [
      { name: 'alpha', label: 'Alpha' },
      { name: 'beta', label: 'Beta' },
    ],
    limits: SPEC_LIMITS,
    billing: 'request',
  }
}

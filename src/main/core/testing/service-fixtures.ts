import type { BalanceItem, Transaction } from '../../../shared/domain/service-schemas'

/** Spec-shaped answers (sections 2.1-2.5) for tests that script a server. Test support only. */
const addr = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`
const addressObject = (n: number) => ({
  hash: addr(n),
  ens_domain_name: null,
  implementations: [],
  is_contract: false,
  is_verified: false,
  metadata: null,
  name: null,
  private_tags: [],
  proxy_type: null,
  public_tags: [],
  watchlist_names: [],
})

export function balanceItem(value = '1000000000000000000'): BalanceItem {
  return {
    token: {
      address: addr(0xabc),
      circulating_market_cap: null,
      decimals: '18',
      exchange_rate: '1.5',
      holders: '12',
      icon_url: null,
      name: 'Demo',
      symbol: 'DMO',
      total_supply: '1000000000000000000000',
      type: 'ERC-20',
      volume_24h: null,
      some_future_field: { tolerated: true },
    },
    token_id: null,
    token_instance: null,
    value,
  }
}

export function transaction(i: number, block: number, confirmations: number): Transaction {
  return {
    actions: [],
    base_fee_per_gas: '1000000000',
    block,
    confirmation_duration: [0, 2000],
    confirmations,
    created_contract: null,
    decoded_input: null,
    exchange_rate: null,
    fee: { type: 'actual', value: '21000000000000' },
    from: addressObject(1),
    to: addressObject(2),
    gas_limit: '21000',
    gas_price: '1000000000',
    gas_used: '21000',
    has_error_in_internal_txs: false,
    hash: `0x${i.toString(16).padStart(64, '0')}`,
    max_fee_per_gas: '2000000000',
    max_priority_fee_per_gas: '1000000000',
    method: null,
    nonce: i,
    position: 0,
    priority_fee: '0',
    raw_input: '0x',
    result: 'success',
    revert_reason: null,
    status: 'ok',
    timestamp: '2024-01-01T00:00:00.000000Z',
    token_transfers: null,
    token_transfers_overflow: null,
    tx_burnt_fee: '21000000000000',
    tx_tag: null,
    tx_types: ['coin_transfer'],
    type: 2,
    value: '1',
  }
}

export function nextPage(last: Transaction) {
  return { api_key: '', apikey: '', block_number: last.block, fee: last.fee.value, hash: last.hash, index: last.position, inserted_at: '2024-01-01T00:00:00.000000Z', items_count: 50, value: last.value }
}

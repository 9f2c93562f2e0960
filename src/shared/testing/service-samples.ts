import type { AddressObject, BalanceItem, Transaction } from '../domain/service-schemas'

/**
 * Spec-shaped service answers (sections 2.1-2.4) for tests in main and the renderer alike.
 * Test support only: nothing outside tests imports it.
 */

export const ME = '0x1111111111111111111111111111111111111111'
export const OTHER = '0x2222222222222222222222222222222222222222'

export function party(hash: string, extra: Partial<AddressObject> = {}): AddressObject {
  return {
    hash,
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
    ...extra,
  }
}

export function makeTx(i: number, extra: Partial<Transaction> = {}): Transaction {
  const hash = `0x${i.toString(16).padStart(64, '0')}`
  return {
    actions: [],
    base_fee_per_gas: '1000000000',
    block: 1000 - i,
    confirmation_duration: [0, 2000],
    confirmations: i + 1,
    created_contract: null,
    decoded_input: null,
    exchange_rate: null,
    fee: { type: 'actual', value: '21000000000000' },
    from: party(i % 2 === 0 ? ME : OTHER),
    to: party(i % 2 === 0 ? OTHER : ME),
    gas_limit: '21000',
    gas_price: '1000000000',
    gas_used: '21000',
    has_error_in_internal_txs: false,
    hash,
    max_fee_per_gas: '2000000000',
    max_priority_fee_per_gas: '1000000',
    method: null,
    nonce: i,
    position: 0,
    priority_fee: '21000000000',
    raw_input: '0x',
    result: 'success',
    revert_reason: null,
    status: 'ok',
    timestamp: new Date(Date.UTC(2026, 0, 1) - i * 60_000).toISOString().replace('Z', '000Z'),
    token_transfers: null,
    token_transfers_overflow: null,
    tx_burnt_fee: '21000000000000',
    tx_tag: null,
    tx_types: ['coin_transfer'],
    type: 2,
    value: '1500000000000000000',
    ...extra,
  }
}

export function makeBalance(
  symbol: string,
  value: string,
  decimals: string | null,
  extra: { rate?: string | null; type?: string; tokenId?: string | null; icon?: string | null } = {},
): BalanceItem {
  return {
    token: {
      address: `0x${symbol
        .padEnd(40, '0')
        .replace(/[^0-9a-f]/gi, 'a')
        .slice(0, 40)}`,
      circulating_market_cap: null,
      decimals,
      exchange_rate: extra.rate ?? null,
      holders: '10',
      icon_url: extra.icon ?? null,
      name: `${symbol} Token`,
      symbol,
      total_supply: '1000000',
      type: extra.type ?? 'ERC-20',
      volume_24h: null,
    },
    token_id: extra.tokenId ?? null,
    token_instance: extra.tokenId ? { id: extra.tokenId, metadata: { name: `${symbol} #${extra.tokenId}` } } : null,
    value,
  }
}

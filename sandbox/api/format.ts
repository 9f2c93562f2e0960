import type { PendingTx } from '../chain/live'
import { getAddress } from 'viem'
import type { BalanceEntry, ChainStore } from '../index/store'
import type { TokenRecord, TransferRecord, TxRecord } from '../index/types'
import { ZERO_ADDRESS } from '@shared/domain/contracts'

/** Static demo market data per token address (lowercase); the sandbox has no market. */
export interface MarketInfo {
  exchangeRate: string | null
  volume24h: string | null
  iconUrl: string | null
}

export interface FormatContext {
  store: ChainStore
  market: ReadonlyMap<string, MarketInfo>
  /** Demo exchange rate of the network's coin, or null. */
  coinRate: string | null
  /** Transactions in the mempool (live chain), newest first. Default none. */
  pending?: () => readonly PendingTx[]
}

/** ISO 8601 UTC with microseconds and Z, as the spec shows ("2025-01-01T00:00:12.000000Z"). */
export function isoMicros(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')
}

/** rate × amount / 10^decimals with two decimals, in integer arithmetic. */
export function fiatValue(rate: string, amount: bigint, decimals: number): string {
  const [whole, fraction = ''] = rate.split('.')
  const scaled = BigInt(`${whole}${fraction}`) * amount
  const shift = decimals + fraction.length - 2
  const cents = shift >= 0 ? scaled / 10n ** BigInt(shift) : scaled * 10n ** BigInt(-shift)
  const text = cents.toString().padStart(3, '0')
  return `${text.slice(0, -2)}.${text.slice(-2)}`
}

export function addressObject(ctx: FormatContext, address: string): Record<string, unknown> {
  const contract = ctx.store.contracts.get(address)
  const token = ctx.store.tokens.get(address)
  return {
    hash: getAddress(address),
    ens_domain_name: null,
    implementations: [],
    is_contract: contract !== undefined,
    // The sandbox knows the source of the contracts it compiled: those count as verified.
    is_verified: contract?.artifact != null,
    metadata: null,
    name: contract ? (token?.name ?? contract.name) : null,
    private_tags: [],
    proxy_type: null,
    public_tags: [],
    watchlist_names: [],
  }
}

export function tokenObject(ctx: FormatContext, token: TokenRecord): Record<string, unknown> {
  const market = ctx.market.get(token.address)
  const supply = token.totalSupply ?? ctx.store.countedSupply(token).toString()
  const rate = market?.exchangeRate ?? null
  return {
    address: getAddress(token.address),
    circulating_market_cap:
      rate && token.decimals !== null ? fiatValue(rate, BigInt(supply), Number(token.decimals)) : null,
    decimals: token.decimals,
    exchange_rate: rate,
    holders: String(ctx.store.holders(token)),
    icon_url: market?.iconUrl ?? null,
    name: token.name,
    symbol: token.symbol,
    total_supply: supply,
    type: token.type,
    volume_24h: market?.volume24h ?? null,
  }
}

export function tokenInstance(ctx: FormatContext, token: TokenRecord, tokenId: string): Record<string, unknown> {
  const owner = token.type === 'ERC-721' ? ctx.store.ownerOf(token.address, tokenId) : null
  return {
    id: tokenId,
    is_unique: token.type === 'ERC-721' || ctx.store.supplyOfId(token.address, tokenId) === 1n,
    owner: owner ? addressObject(ctx, owner) : null,
    metadata: null,
    image_url: null,
    animation_url: null,
    external_app_url: null,
  }
}

export function balanceItem(ctx: FormatContext, entry: BalanceEntry): Record<string, unknown> {
  return {
    token: tokenObject(ctx, entry.token),
    token_id: entry.tokenId,
    token_instance: entry.tokenId === null ? null : tokenInstance(ctx, entry.token, entry.tokenId),
    value: entry.value.toString(),
  }
}

function transferItem(ctx: FormatContext, tx: TxRecord, t: TransferRecord): Record<string, unknown> {
  const token = ctx.store.tokens.get(t.token)!
  const total =
    token.type === 'ERC-20'
      ? { decimals: token.decimals, value: t.amount }
      : token.type === 'ERC-721'
        ? { token_id: t.tokenId, token_instance: null }
        : { token_id: t.tokenId, value: t.amount, decimals: null, token_instance: null }
  return {
    block_hash: tx.blockHash,
    block_number: tx.block,
    from: addressObject(ctx, t.from),
    to: addressObject(ctx, t.to),
    log_index: t.logIndex,
    method: tx.method,
    timestamp: isoMicros(tx.timestamp),
    token: tokenObject(ctx, token),
    total,
    transaction_hash: tx.hash,
    type: t.from === ZERO_ADDRESS ? 'token_minting' : t.to === ZERO_ADDRESS ? 'token_burning' : 'token_transfer',
  }
}

/** Explorer-style kinds; a transaction can have several. */
export function txTypes(ctx: FormatContext, tx: TxRecord): string[] {
  const types: string[] = []
  if (tx.created) {
    if (ctx.store.tokens.has(tx.created)) types.push('token_creation')
    types.push('contract_creation')
  }
  if (tx.transfers.length > 0) types.push('token_transfer')
  const toContract = tx.to !== null && ctx.store.isContract(tx.to)
  if (toContract) types.push('contract_call')
  if ((tx.to !== null && !toContract) || BigInt(tx.value) > 0n) types.push('coin_transfer')
  return types
}

/** A transaction item lists at most this many token transfers, like the explorers it mimics. */
export const TRANSFERS_PER_ITEM = 50

export function txItem(ctx: FormatContext, tx: TxRecord): Record<string, unknown> {
  const gasUsed = BigInt(tx.gasUsed)
  const gasPrice = BigInt(tx.gasPrice)
  const baseFee = BigInt(tx.baseFee)
  const hasTransfers = tx.transfers.length > 0
  // Legacy (type 0) transactions have no fee market: Blockscout sends these fields null.
  const legacy = tx.type === 0
  return {
    actions: [],
    base_fee_per_gas: tx.baseFee,
    block: tx.block,
    confirmation_duration: [0, tx.intervalMs],
    confirmations: Math.max(0, ctx.store.head - tx.block),
    created_contract: tx.created ? addressObject(ctx, tx.created) : null,
    decoded_input: tx.decoded,
    exchange_rate: ctx.coinRate,
    fee: { type: 'actual', value: (gasUsed * gasPrice).toString() },
    from: addressObject(ctx, tx.from),
    to: tx.to ? addressObject(ctx, tx.to) : null,
    gas_limit: tx.gasLimit,
    gas_price: tx.gasPrice,
    gas_used: tx.gasUsed,
    has_error_in_internal_txs: tx.internalError,
    hash: tx.hash,
    max_fee_per_gas: legacy ? null : tx.maxFeePerGas,
    max_priority_fee_per_gas: legacy ? null : tx.maxPriorityFeePerGas,
    method: tx.method,
    nonce: tx.nonce,
    position: tx.position,
    priority_fee: legacy ? null : ((gasPrice - baseFee) * gasUsed).toString(),
    raw_input: tx.input,
    result: tx.ok ? 'success' : (tx.error ?? 'execution reverted'),
    revert_reason: tx.revertReason,
    status: tx.ok ? 'ok' : 'error',
    timestamp: isoMicros(tx.timestamp),
    token_transfers: hasTransfers
      ? tx.transfers.slice(0, TRANSFERS_PER_ITEM).map((t) => transferItem(ctx, tx, t))
      : null,
    token_transfers_overflow: hasTransfers ? tx.transfers.length > TRANSFERS_PER_ITEM : null,
    tx_burnt_fee: legacy ? null : (baseFee * gasUsed).toString(),
    tx_tag: null,
    tx_types: txTypes(ctx, tx),
    type: tx.type,
    value: tx.value,
  }
}

/**
 * A transaction not yet in a block, as Blockscout v6 sends it: no block, time, status, gas
 * used, type or position, fee fields null, `confirmation_duration` empty, `result` "pending",
 * and the fee as the most it can cost (`type: "maximum"`).
 */
export function pendingItem(ctx: FormatContext, p: PendingTx): Record<string, unknown> {
  return {
    actions: [],
    base_fee_per_gas: null,
    block: null,
    confirmation_duration: [],
    confirmations: 0,
    created_contract: null,
    decoded_input: null,
    exchange_rate: ctx.coinRate,
    fee: { type: 'maximum', value: (BigInt(p.gasLimit) * BigInt(p.maxFeePerGas)).toString() },
    from: addressObject(ctx, p.from),
    to: addressObject(ctx, p.to),
    gas_limit: p.gasLimit,
    gas_price: p.maxFeePerGas,
    gas_used: null,
    has_error_in_internal_txs: null,
    hash: p.hash,
    max_fee_per_gas: p.maxFeePerGas,
    max_priority_fee_per_gas: p.maxPriorityFeePerGas,
    method: null,
    nonce: p.nonce,
    position: null,
    priority_fee: null,
    raw_input: '0x',
    result: 'pending',
    revert_reason: null,
    status: null,
    timestamp: null,
    token_transfers: null,
    token_transfers_overflow: null,
    tx_burnt_fee: null,
    tx_tag: null,
    tx_types: ['coin_transfer'],
    type: null,
    value: p.value,
  }
}

/** Built from the page's last item; the key slots are always empty in a response. */
export function nextPageParams(tx: TxRecord, itemsCount: number): Record<string, unknown> {
  return {
    api_key: '',
    apikey: '',
    block_number: tx.block,
    fee: (BigInt(tx.gasUsed) * BigInt(tx.gasPrice)).toString(),
    hash: tx.hash,
    index: tx.position,
    // The indexer inserts a block the moment it is mined, so insertion time is block time.
    inserted_at: isoMicros(tx.timestamp),
    items_count: itemsCount,
    value: tx.value,
  }
}

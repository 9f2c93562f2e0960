import { z } from 'zod'
import { ADDRESS_PATTERN } from './address'

/**
 * Schemas of the service's wire format (spec sections 2.1-2.6). They tolerate extra fields
 * (the service may add some) and are strict on the ones the app uses. Amounts stay decimal
 * strings here; code converts them to bigint where it computes.
 */

export const decimalString = z.string().regex(/^\d+$/, 'expected a non-negative decimal string')
const nullableDecimal = z.union([decimalString, z.null()])
/** Rates and market caps may carry a fraction ("1843.21"). */
const decimalNumberString = z.string().regex(/^\d+(\.\d+)?$/, 'expected a decimal number string')
const nullableDecimalNumber = z.union([decimalNumberString, z.null()])
export const hexString = z.string().regex(/^0x[0-9a-fA-F]*$/, 'expected 0x-prefixed hex')
export const addressHash = z.string().regex(ADDRESS_PATTERN, 'expected a 20-byte address')
export const txHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected a 32-byte hash')
export const isoTimestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/, 'expected ISO 8601 UTC with microseconds and Z')

export const tokenSchema = z.looseObject({
  address: addressHash,
  circulating_market_cap: nullableDecimalNumber,
  decimals: z.union([decimalString, z.null()]),
  exchange_rate: nullableDecimalNumber,
  holders: decimalString,
  icon_url: z.union([z.string(), z.null()]),
  name: z.union([z.string(), z.null()]),
  symbol: z.union([z.string(), z.null()]),
  total_supply: z.union([decimalString, z.null()]),
  type: z.string(),
  volume_24h: nullableDecimalNumber,
})
export type Token = z.infer<typeof tokenSchema>

export const balanceItemSchema = z.looseObject({
  token: tokenSchema,
  token_id: z.union([decimalString, z.null()]),
  token_instance: z.union([z.record(z.string(), z.unknown()), z.null()]),
  value: decimalString,
})
export type BalanceItem = z.infer<typeof balanceItemSchema>

export const balancesResponseSchema = z.looseObject({
  items: z.array(balanceItemSchema),
  next_page_params: z.union([z.record(z.string(), z.unknown()), z.null()]),
})
export type BalancesResponse = z.infer<typeof balancesResponseSchema>

export const addressObjectSchema = z.looseObject({
  hash: addressHash,
  ens_domain_name: z.union([z.string(), z.null()]),
  implementations: z.array(z.unknown()),
  is_contract: z.boolean(),
  is_verified: z.boolean(),
  metadata: z.union([z.record(z.string(), z.unknown()), z.null()]),
  name: z.union([z.string(), z.null()]),
  private_tags: z.array(z.unknown()),
  proxy_type: z.union([z.string(), z.null()]),
  public_tags: z.array(z.unknown()),
  watchlist_names: z.array(z.unknown()),
})
export type AddressObject = z.infer<typeof addressObjectSchema>

export const transactionSchema = z.looseObject({
  actions: z.array(z.unknown()),
  base_fee_per_gas: decimalString,
  block: z.number().int().nonnegative(),
  confirmation_duration: z.tuple([z.number(), z.number()]),
  confirmations: z.number().int().nonnegative(),
  created_contract: z.union([z.record(z.string(), z.unknown()), z.null()]),
  decoded_input: z.union([z.record(z.string(), z.unknown()), z.null()]),
  exchange_rate: nullableDecimalNumber,
  fee: z.looseObject({ type: z.string(), value: decimalString }),
  from: addressObjectSchema,
  // A contract creation has no recipient; the spec types `to` as an address object, so the
  // schema accepts null there rather than rejecting a whole page.
  to: z.union([addressObjectSchema, z.null()]),
  gas_limit: decimalString,
  gas_price: decimalString,
  gas_used: decimalString,
  has_error_in_internal_txs: z.boolean(),
  hash: txHash,
  max_fee_per_gas: nullableDecimal,
  max_priority_fee_per_gas: nullableDecimal,
  method: z.union([z.string(), z.null()]),
  nonce: z.number().int().nonnegative(),
  position: z.number().int().nonnegative(),
  priority_fee: decimalString,
  raw_input: hexString,
  result: z.string(),
  revert_reason: z.union([z.string(), z.null()]),
  status: z.string(),
  timestamp: isoTimestamp,
  token_transfers: z.union([z.array(z.unknown()), z.null()]),
  token_transfers_overflow: z.union([z.boolean(), z.null()]),
  tx_burnt_fee: decimalString,
  tx_tag: z.union([z.string(), z.null()]),
  tx_types: z.array(z.string()),
  type: z.number().int().nonnegative(),
  value: decimalString,
})
export type Transaction = z.infer<typeof transactionSchema>

export const nextPageParamsSchema = z.looseObject({
  api_key: z.string(),
  apikey: z.string(),
  block_number: z.number().int().nonnegative(),
  fee: decimalString,
  hash: txHash,
  index: z.number().int().nonnegative(),
  inserted_at: z.string(),
  items_count: z.number().int().nonnegative(),
  value: decimalString,
})
export type NextPageParams = z.infer<typeof nextPageParamsSchema>

export const transactionsResponseSchema = z.looseObject({
  items: z.array(transactionSchema),
  next_page_params: z.union([nextPageParamsSchema, z.null()]),
})
export type TransactionsResponse = z.infer<typeof transactionsResponseSchema>

export const rpcErrorObjectSchema = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
})

export const rpcResponseSchema = z.union([
  z.looseObject({ jsonrpc: z.literal('2.0'), id: z.union([z.number(), z.string(), z.null()]), result: z.unknown() }),
  z.looseObject({ jsonrpc: z.literal('2.0'), id: z.union([z.number(), z.string(), z.null()]), error: rpcErrorObjectSchema }),
])
export type RpcResponse = z.infer<typeof rpcResponseSchema>

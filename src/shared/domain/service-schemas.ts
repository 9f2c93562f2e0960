import { z } from 'zod'
import { ADDRESS_PATTERN } from './address'

/**
 * Schemas of the service's wire format (spec sections 2.1-2.6). They tolerate extra fields
 * (the service may add some) and are strict on the ones the app uses. Amounts stay decimal
 * strings here; code converts them to bigint where it computes.
 */

/**
 * The most digits a uint256 has (2^256 - 1 is 78 digits long). Every amount, id and count on the
 * wire is one: a longer string is no chain's value, and formatting it costs time that grows with
 * its length, so the item carrying it is unreadable (shown as such), never the page.
 */
export const MAX_DECIMAL_DIGITS = 78

export const decimalString = z
  .string()
  .max(MAX_DECIMAL_DIGITS, `expected at most ${MAX_DECIMAL_DIGITS} digits (a uint256)`)
  .regex(/^\d+$/, 'expected a non-negative decimal string')
const nullableDecimal = z.union([decimalString, z.null()])
/** Rates and market caps may carry a fraction ("1843.21"); each part is held to a uint256's digits. */
const decimalNumberString = z
  .string()
  .max(2 * MAX_DECIMAL_DIGITS + 1, `expected at most ${MAX_DECIMAL_DIGITS} digits on each side of the point`)
  .regex(
    /^\d{1,78}(\.\d{1,78})?$/,
    `expected a decimal number string of at most ${MAX_DECIMAL_DIGITS} digits on each side of the point`,
  )
const nullableDecimalNumber = z.union([decimalNumberString, z.null()])
export const hexString = z.string().regex(/^0x[0-9a-fA-F]*$/, 'expected 0x-prefixed hex')
export const addressHash = z.string().regex(ADDRESS_PATTERN, 'expected a 20-byte address')
export const txHash = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected a 32-byte hash')
export const isoTimestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/, 'expected ISO 8601 UTC with microseconds and Z')

/**
 * Real services (Blockscout) send looser answers than the spec's tables: null fields on
 * pending and legacy transactions, tags as objects, fields the spec does not list. The
 * schemas below accept those shapes (fixtures: shared/fixtures/blockscout) and stay strict on
 * what identifies an item (hash, addresses, amounts). Fields the app only shows are nullish.
 */
const nullableString = z.union([z.string(), z.null()])
/** Any ISO 8601 date-time: the spec shows microseconds and Z; other services send less or an offset. */
const anyIsoTimestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})$/, 'expected an ISO 8601 date-time')

export const tokenSchema = z.looseObject({
  address: addressHash,
  circulating_market_cap: nullableDecimalNumber.optional(),
  decimals: z.union([decimalString, z.null()]),
  exchange_rate: nullableDecimalNumber.optional(),
  holders: z.union([decimalString, z.null()]).optional(),
  icon_url: nullableString.optional(),
  name: nullableString,
  symbol: nullableString,
  total_supply: z.union([decimalString, z.null()]).optional(),
  type: z.string(),
  volume_24h: nullableDecimalNumber.optional(),
})
export type Token = z.infer<typeof tokenSchema>

export const balanceItemSchema = z.looseObject({
  token: tokenSchema,
  token_id: z.union([decimalString, z.null()]).optional(),
  token_instance: z.union([z.record(z.string(), z.unknown()), z.null()]).optional(),
  value: decimalString,
})
export type BalanceItem = z.infer<typeof balanceItemSchema>

/** A tag on an address: Blockscout sends `{label, display_name}` objects, the spec strings. */
export const addressTagSchema = z.union([
  z.string(),
  z.looseObject({ label: nullableString.optional(), display_name: nullableString.optional() }),
])
export type AddressTag = z.infer<typeof addressTagSchema>
const tagList = z.union([z.array(addressTagSchema), z.null()]).optional()

export const addressObjectSchema = z.looseObject({
  hash: addressHash,
  ens_domain_name: nullableString.optional(),
  implementations: z.union([z.array(z.unknown()), z.null()]).optional(),
  is_contract: z.union([z.boolean(), z.null()]).optional(),
  is_verified: z.union([z.boolean(), z.null()]).optional(),
  metadata: z.union([z.record(z.string(), z.unknown()), z.null()]).optional(),
  name: nullableString.optional(),
  private_tags: tagList,
  proxy_type: nullableString.optional(),
  public_tags: tagList,
  watchlist_names: tagList,
})
export type AddressObject = z.infer<typeof addressObjectSchema>

/** A decoded call: `decoded_input`, and `revert_reason` when the service decoded the error. */
export const decodedCallSchema = z.looseObject({
  method_call: z.string(),
  method_id: nullableString.optional(),
  parameters: z.array(z.looseObject({ name: nullableString.optional(), type: z.string(), value: z.unknown() })),
})
export type DecodedCall = z.infer<typeof decodedCallSchema>

/** Blockscout sends `{raw}` or a decoded call; the spec's table says a string. All three are read. */
export const revertReasonSchema = z.union([z.string(), z.looseObject({ raw: z.string() }), decodedCallSchema, z.null()])
export type RevertReason = z.infer<typeof revertReasonSchema>

/** `{value, decimals}` (fungible), `{token_id}` (ERC-721) or both (ERC-1155/404). */
export const transferTotalSchema = z
  .looseObject({
    value: z.union([decimalString, z.null()]).optional(),
    decimals: z.union([decimalString, z.null()]).optional(),
    token_id: z.union([decimalString, z.null()]).optional(),
  })
  .refine((t) => typeof t.value === 'string' || typeof t.token_id === 'string', 'expected a value or a token id')
export type TransferTotal = z.infer<typeof transferTotalSchema>

export const tokenTransferSchema = z.looseObject({
  from: addressObjectSchema,
  to: addressObjectSchema,
  token: tokenSchema,
  total: transferTotalSchema,
  type: z.string(),
})
export type TokenTransfer = z.infer<typeof tokenTransferSchema>

/** Summaries of what a transaction did (swaps, mints); the spec says "not shown", kept typed for the detail's raw view. */
export const txActionSchema = z.looseObject({
  protocol: nullableString.optional(),
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
})
export type TxAction = z.infer<typeof txActionSchema>

export const transactionSchema = z.looseObject({
  actions: z.union([z.array(txActionSchema), z.null()]).optional(),
  // Pending and legacy (type 0) transactions have no base fee, block, time, gas used or position.
  base_fee_per_gas: nullableDecimal,
  block: z.union([z.number().int().nonnegative(), z.null()]),
  // Milliseconds: `[]` while pending, `[x]` when both ends are equal, else `[min, max]`.
  confirmation_duration: z.union([z.array(z.number()).max(2), z.null()]).optional(),
  confirmations: z.number().int().nonnegative(),
  created_contract: z.union([addressObjectSchema, z.null()]).optional(),
  decoded_input: z.union([decodedCallSchema, z.null()]).optional(),
  exchange_rate: nullableDecimalNumber.optional(),
  // `type` is "actual" once mined, "maximum" while pending; the value is shown either way.
  fee: z.looseObject({ type: z.string(), value: nullableDecimal }),
  from: addressObjectSchema,
  // A contract creation has no recipient; the spec types `to` as an address object, so the
  // schema accepts null there rather than rejecting a whole page.
  to: z.union([addressObjectSchema, z.null()]),
  gas_limit: decimalString,
  gas_price: nullableDecimal,
  gas_used: nullableDecimal,
  has_error_in_internal_txs: z.union([z.boolean(), z.null()]).optional(),
  hash: txHash,
  max_fee_per_gas: nullableDecimal.optional(),
  max_priority_fee_per_gas: nullableDecimal.optional(),
  method: nullableString,
  nonce: z.number().int().nonnegative(),
  position: z.union([z.number().int().nonnegative(), z.null()]),
  priority_fee: nullableDecimal,
  raw_input: hexString,
  result: z.string(),
  revert_reason: revertReasonSchema.optional(),
  status: nullableString,
  timestamp: z.union([anyIsoTimestamp, z.null()]),
  token_transfers: z.union([z.array(tokenTransferSchema), z.null()]).optional(),
  token_transfers_overflow: z.union([z.boolean(), z.null()]).optional(),
  tx_burnt_fee: nullableDecimal,
  tx_tag: nullableString.optional(),
  tx_types: z.array(z.string()),
  type: z.union([z.number().int().nonnegative(), z.null()]),
  value: decimalString,
})
export type Transaction = z.infer<typeof transactionSchema>

/**
 * An item of a page that does not match its schema. It is kept, not dropped: the list shows a
 * marked row with the raw JSON and the path of the first field that failed, and exports
 * write it as a raw row.
 */
export interface UnreadableItem {
  /** Position in its page. */
  index: number
  /** The first failing field, e.g. "token_transfers.0.total". Empty when the item itself is wrong. */
  path: string
  message: string
  /** The item exactly as received. */
  raw: unknown
  /** Its hash when it has a readable one (to de-duplicate and to look it up elsewhere). */
  hash: string | null
}

/** An unreadable item as saved in a snapshot and sent across the bridge. */
export const unreadableItemSchema = z.object({
  index: z.number().int().nonnegative(),
  path: z.string(),
  message: z.string(),
  raw: z.unknown(),
  hash: nullableString,
})

export interface ParsedItems<T> {
  items: T[]
  unreadable: UnreadableItem[]
}

type Issue = z.core.$ZodIssue

/**
 * A union (e.g. "a transfer list or null") reports only "Invalid input" at its own path; the
 * branch that got furthest names the field that really failed ("token_transfers.1.total").
 */
function deepestIssue(issue: Issue): { path: PropertyKey[]; message: string } {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return { path: issue.path, message: issue.message }
  let best: { path: PropertyKey[]; message: string } = { path: issue.path, message: issue.message }
  for (const branch of issue.errors) {
    for (const inner of branch) {
      const d = deepestIssue(inner)
      const path = [...issue.path, ...d.path]
      if (path.length > best.path.length) best = { path, message: d.message }
    }
  }
  return best
}

/** Each item on its own: one bad item never hides the others. */
export function parseItems<S extends z.ZodType>(schema: S, raw: readonly unknown[]): ParsedItems<z.output<S>> {
  const items: z.output<S>[] = []
  const unreadable: UnreadableItem[] = []
  raw.forEach((item, index) => {
    const r = schema.safeParse(item)
    if (r.success) {
      items.push(r.data)
      return
    }
    const issue = r.error.issues[0]
    const found = issue ? deepestIssue(issue) : null
    const hash = item && typeof item === 'object' && 'hash' in item && typeof item.hash === 'string' ? item.hash : null
    unreadable.push({
      index,
      path: found ? found.path.map(String).join('.') : '',
      message: found?.message ?? 'unreadable',
      raw: item,
      hash,
    })
  })
  return { items, unreadable }
}

/** The page envelope is strict; its items are read one by one (`parseItems`). */
export const balancesResponseSchema = z
  .looseObject({
    items: z.array(z.unknown()),
    next_page_params: z.union([z.record(z.string(), z.unknown()), z.null()]),
  })
  .transform(({ items, ...rest }) => ({ ...rest, ...parseItems(balanceItemSchema, items) }))
export type BalancesResponse = z.infer<typeof balancesResponseSchema>

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

/** The page envelope is strict; its items are read one by one (`parseItems`). */
export const transactionsResponseSchema = z
  .looseObject({
    items: z.array(z.unknown()),
    next_page_params: z.union([nextPageParamsSchema, z.null()]),
  })
  .transform(({ items, ...rest }) => ({ ...rest, ...parseItems(transactionSchema, items) }))
export type TransactionsResponse = z.infer<typeof transactionsResponseSchema>

export const rpcErrorObjectSchema = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
})

export const rpcResponseSchema = z.union([
  z.looseObject({ jsonrpc: z.literal('2.0'), id: z.union([z.number(), z.string(), z.null()]), result: z.unknown() }),
  z.looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.number(), z.string(), z.null()]),
    error: rpcErrorObjectSchema,
  }),
])
export type RpcResponse = z.infer<typeof rpcResponseSchema>

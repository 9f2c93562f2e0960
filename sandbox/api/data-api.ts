import { isAddress } from 'viem'
import type { Cursor } from '../index/store'
import { balanceItem, nextPageParams, pendingItem, txItem, type FormatContext } from './format'
import { invalidParameter, json, type Reply } from './http'
import { isAddressText } from '@shared/domain/address'

export const PAGE_SIZE = 50

/** The address parameter: 0x + 40 hex; mixed case must carry a valid EIP-55 checksum. */
export function parseAddress(query: URLSearchParams): string | Reply {
  const raw = query.get('address')
  if (raw === null || raw === '') return invalidParameter('address', 'the address parameter is required')
  if (!isAddressText(raw)) return invalidParameter('address', 'address must be 0x followed by 40 hex characters')
  const body = raw.slice(2)
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase()
  if (mixed && !isAddress(raw, { strict: true }))
    return invalidParameter('address', 'address has mixed case but an invalid EIP-55 checksum')
  return raw.toLowerCase()
}

function nonNegativeInt(query: URLSearchParams, name: string): number | null | Reply {
  const raw = query.get(name)
  if (raw === null) return null
  if (!/^\d{1,15}$/.test(raw)) return invalidParameter(name, `${name} must be a non-negative integer`)
  return Number(raw)
}

const isReply = (v: unknown): v is Reply => typeof v === 'object' && v !== null && 'status' in v && 'body' in v

export function balances(ctx: FormatContext, query: URLSearchParams): Reply {
  const address = parseAddress(query)
  if (isReply(address)) return address
  // Everything fits in one page, so there is never a next one.
  return json(200, { items: ctx.store.balancesOf(address).map((e) => balanceItem(ctx, e)), next_page_params: null })
}

/**
 * Newest first, 50 a page. The next page is asked for with the previous response's
 * next_page_params as query parameters: block_number + index are the cursor (the page
 * continues strictly after that transaction, so new blocks never shift later pages) and
 * items_count carries on the running count; fee, hash, value and inserted_at are accepted and
 * ignored, as are empty api_key/apikey slots.
 */
export function transactions(ctx: FormatContext, query: URLSearchParams): Reply {
  const address = parseAddress(query)
  if (isReply(address)) return address
  const block = nonNegativeInt(query, 'block_number')
  if (isReply(block)) return block
  const index = nonNegativeInt(query, 'index')
  if (isReply(index)) return index
  const counted = nonNegativeInt(query, 'items_count')
  if (isReply(counted)) return counted
  if ((block === null) !== (index === null)) {
    const missing = block === null ? 'block_number' : 'index'
    return invalidParameter(missing, 'block_number and index come together (pass every key of next_page_params back)')
  }
  const cursor: Cursor | null = block === null ? null : { block, index: index! }
  const { items, more } = ctx.store.page(address, cursor, PAGE_SIZE)
  const itemsCount = (counted ?? 0) + items.length
  const last = items[items.length - 1]
  // Pending transactions come first on the first page (as Blockscout lists them); they are
  // not counted in the cursor, which follows mined transactions only.
  const pending = cursor === null ? (ctx.pending?.() ?? []).filter((p) => p.from === address || p.to === address) : []
  return json(200, {
    items: [...pending.map((p) => pendingItem(ctx, p)), ...items.map((tx) => txItem(ctx, tx))],
    next_page_params: more && last ? nextPageParams(last, itemsCount) : null,
  })
}

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { PAGE_SIZE, parseAddress } from './data-api'
import { invalidParameter, json, type Reply } from './http'
import { ADDRESS_PATTERN } from '@shared/domain/address'

/**
 * Replay mode (`--replay DIR`): the sandbox answers for one address from item files shaped like
 * shared/fixtures/blockscout (`{address, items: [{item}, ...]}` in transactions.json and/or
 * balances.json), on every network, through the same keys, limits, faults and paging as the
 * seeded data. The items are served exactly as written: this is how the app meets shapes the
 * sandbox itself never produces (real Blockscout answers, broken items).
 */
export interface Replay {
  address: string
  transactions: unknown[] | null
  balances: unknown[] | null
}

const itemFile = z.looseObject({
  address: z.string().regex(ADDRESS_PATTERN, 'expected a 20-byte address'),
  items: z.array(z.looseObject({ item: z.unknown() })),
})

async function readItems(file: string): Promise<{ address: string; items: unknown[] } | null> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return null
    throw error
  }
  const parsed = itemFile.safeParse(JSON.parse(text))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(`${file}: ${issue?.path.join('.') || '(file)'}: ${issue?.message ?? 'not an item file'}`)
  }
  return { address: parsed.data.address.toLowerCase(), items: parsed.data.items.map((i) => i.item) }
}

export async function loadReplay(dir: string): Promise<Replay> {
  const txs = await readItems(join(dir, 'transactions.json'))
  const bals = await readItems(join(dir, 'balances.json'))
  if (!txs && !bals) throw new Error(`--replay ${dir}: neither transactions.json nor balances.json is there`)
  if (txs && bals && txs.address !== bals.address)
    throw new Error(`--replay ${dir}: transactions.json and balances.json are for different addresses`)
  return { address: (txs ?? bals)!.address, transactions: txs?.items ?? null, balances: bals?.items ?? null }
}

const ZERO_HASH = `0x${'0'.repeat(64)}`

/**
 * The replayed answer for this request, or null when the request is not for the replayed
 * address (the seeded data answers then). Paging: 50 a page, the offset travels as
 * `items_count` in next_page_params (with the spec's other keys, so a client that echoes
 * them all back works unchanged).
 */
export function replayAnswer(
  replay: Replay,
  endpoint: 'transactions' | 'balance',
  query: URLSearchParams,
  pageSize = PAGE_SIZE,
): Reply | null {
  const address = parseAddress(query)
  if (typeof address !== 'string' || address !== replay.address) return null
  if (endpoint === 'balance')
    return replay.balances ? json(200, { items: replay.balances, next_page_params: null }) : null
  const all = replay.transactions
  if (!all) return null
  const raw = query.get('items_count')
  if (raw !== null && !/^\d{1,9}$/.test(raw))
    return invalidParameter('items_count', 'items_count must be a non-negative integer')
  const from = raw === null ? 0 : Number(raw)
  const items = all.slice(from, from + pageSize)
  const served = from + items.length
  const last = items.at(-1)
  const lastHash =
    last &&
    typeof last === 'object' &&
    'hash' in last &&
    typeof last.hash === 'string' &&
    /^0x[0-9a-fA-F]{64}$/.test(last.hash)
      ? last.hash
      : ZERO_HASH
  const next =
    served < all.length
      ? {
          api_key: '',
          apikey: '',
          block_number: 0,
          fee: '0',
          hash: lastHash,
          index: served,
          inserted_at: '',
          items_count: served,
          value: '0',
        }
      : null
  return json(200, { items, next_page_params: next })
}

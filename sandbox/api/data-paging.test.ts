import { pad } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC } from '@shared/domain/events'
import { checkNextPageParams, dataUrl, http, rpc } from '../test-helpers'
import { SEED_TIMEOUT_MS, startSandbox, type StartedSandbox } from '../testing'

/** Walks every page of the busy address and compares the walk with an independent scan of the chain. */
let sb: StartedSandbox
const KEY = 'paging-test-key'

interface Page {
  items: { hash: string; block: number; position: number }[]
  next_page_params: Record<string, string | number> | null
}

beforeAll(async () => {
  sb = await startSandbox({
    args: ['--api-key', KEY, '--block-time', '0', '--rate', '1000', '--burst', '1000', '--quota', '1000000'],
  })
}, SEED_TIMEOUT_MS)
afterAll(async () => {
  await sb?.stop()
})

/** Every transaction the address appears in, read from blocks and logs over the RPC endpoint. */
async function scanChain(network: string, address: string): Promise<Map<string, [number, number]>> {
  const head = Number((await rpc<string>(sb.info.rpc_url, network, KEY, [{ method: 'eth_blockNumber' }]))[0])
  const found = new Map<string, [number, number]>()
  const me = address.toLowerCase()
  for (let from = 1; from <= head; from += 100) {
    const numbers = Array.from({ length: Math.min(100, head - from + 1) }, (_, i) => `0x${(from + i).toString(16)}`)
    const blocks = await rpc<{
      transactions: { hash: string; from: string; to: string | null; transactionIndex: string; blockNumber: string }[]
    }>(
      sb.info.rpc_url,
      network,
      KEY,
      numbers.map((n) => ({ method: 'eth_getBlockByNumber', params: [n, true] })),
    )
    for (const block of blocks) {
      for (const tx of block.transactions) {
        if (tx.from.toLowerCase() === me || tx.to?.toLowerCase() === me)
          found.set(tx.hash, [Number(tx.blockNumber), Number(tx.transactionIndex)])
      }
    }
  }
  const topic = pad(me as `0x${string}`)
  const filters = [
    [TRANSFER_TOPIC, topic],
    [TRANSFER_TOPIC, null, topic],
    [TRANSFER_SINGLE_TOPIC, null, topic],
    [TRANSFER_SINGLE_TOPIC, null, null, topic],
    [TRANSFER_BATCH_TOPIC, null, topic],
    [TRANSFER_BATCH_TOPIC, null, null, topic],
  ]
  const logs = await rpc<{ transactionHash: string; blockNumber: string; transactionIndex: string }[]>(
    sb.info.rpc_url,
    network,
    KEY,
    filters.map((topics) => ({
      method: 'eth_getLogs',
      params: [{ fromBlock: '0x0', toBlock: `0x${head.toString(16)}`, topics }],
    })),
  )
  for (const log of logs.flat()) found.set(log.transactionHash, [Number(log.blockNumber), Number(log.transactionIndex)])
  // A contract creation's sender is in `from`, already covered.
  return found
}

describe.each(['alpha', 'beta'])('paging on %s', (network) => {
  it('walks all pages of the busy address: 50 a page, newest first, no duplicate, no gap', async () => {
    const whale = sb.info.demo_addresses[network]!.whale!
    const seen: Page['items'] = []
    let params: Record<string, string | number> = { api_key: KEY, address: whale }
    let pages = 0
    for (;;) {
      const r = await http<Page>(dataUrl(sb.info.base_url, network, 'transactions', params))
      expect(r.status).toBe(200)
      pages += 1
      seen.push(...r.json.items)
      const next = r.json.next_page_params
      if (!next) {
        expect(r.json.items.length).toBeGreaterThan(0)
        expect(r.json.items.length).toBeLessThanOrEqual(50)
        break
      }
      expect(r.json.items).toHaveLength(50)
      checkNextPageParams(next)
      const last = r.json.items[49]!
      expect(next).toMatchObject({
        hash: last.hash,
        block_number: last.block,
        index: last.position,
        items_count: seen.length,
      })
      // The spec's way: pass every key back (api_key/apikey come back empty) plus the real key.
      const url = new URL(dataUrl(sb.info.base_url, network, 'transactions', { address: whale }))
      for (const [k, v] of Object.entries(next)) url.searchParams.append(k, String(v))
      url.searchParams.append('api_key', KEY)
      params = Object.fromEntries(url.searchParams)
      params.api_key = KEY
      expect(pages).toBeLessThan(200)
    }
    expect(pages).toBeGreaterThanOrEqual(51)
    expect(seen.length).toBeGreaterThanOrEqual(2500)
    expect(new Set(seen.map((t) => t.hash)).size).toBe(seen.length)
    for (let i = 1; i < seen.length; i++) {
      const a = seen[i - 1]!
      const b = seen[i]!
      expect(a.block > b.block || (a.block === b.block && a.position > b.position)).toBe(true)
    }
    const chain = await scanChain(network, whale)
    expect(new Set(seen.map((t) => t.hash))).toEqual(new Set(chain.keys()))
    for (const t of seen) expect(chain.get(t.hash)).toEqual([t.block, t.position])
  }, 120_000)

  it('accepts next_page_params with empty key slots before the real key in the query', async () => {
    const whale = sb.info.demo_addresses[network]!.whale!
    const first = await http<Page>(dataUrl(sb.info.base_url, network, 'transactions', { api_key: KEY, address: whale }))
    const query = new URLSearchParams({ address: whale })
    for (const [k, v] of Object.entries(first.json.next_page_params!)) query.append(k, String(v))
    query.append('api_key', KEY)
    expect(query.getAll('api_key')).toEqual(['', KEY])
    const second = await http<Page>(`${sb.info.base_url}/api/v1/${network}/transactions?${query}`)
    expect(second.status).toBe(200)
    expect(second.json.items[0]!.hash).not.toBe(first.json.items[0]!.hash)
    expect(second.json.next_page_params!.items_count).toBe(100)
  })

  it('rejects malformed paging parameters with a 400 naming the parameter', async () => {
    const whale = sb.info.demo_addresses[network]!.whale!
    const cases: [Record<string, string>, string][] = [
      [{ block_number: 'abc', index: '1' }, 'block_number'],
      [{ block_number: '10', index: '-1' }, 'index'],
      [{ block_number: '10' }, 'index'],
      [{ index: '3' }, 'block_number'],
      [{ block_number: '10', index: '1', items_count: '1.5' }, 'items_count'],
    ]
    for (const [params, parameter] of cases) {
      const r = await http(
        dataUrl(sb.info.base_url, network, 'transactions', { api_key: KEY, address: whale, ...params }),
      )
      expect(r.status).toBe(400)
      expect(r.json).toMatchObject({ error: 'invalid_parameter', parameter })
    }
  })

  it('returns an empty last page past the oldest transaction', async () => {
    const r = await http<Page>(
      dataUrl(sb.info.base_url, network, 'transactions', {
        api_key: KEY,
        address: sb.info.demo_addresses[network]!.whale!,
        block_number: 0,
        index: 0,
      }),
    )
    expect(r.json).toEqual({ items: [], next_page_params: null })
  })
})

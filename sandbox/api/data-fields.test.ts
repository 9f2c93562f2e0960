import { balancesResponseSchema, transactionSchema, transactionsResponseSchema } from '@shared/domain/service-schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SEED_FINGERPRINT } from '../seed/fingerprint'
import {
  checkAddressObject,
  checkNextPageParams,
  checkToken,
  checkTransaction,
  dataUrl,
  http,
  rpc,
} from '../test-helpers'
import { SEED_TIMEOUT_MS, startSandbox, type StartedSandbox } from '../testing'

/** Spec 2.1-2.5 on real responses: every field, its type, and its value against the chain. */
let sb: StartedSandbox
const KEY = 'fields-test-key'
const CHAIN_IDS: Record<string, number> = { alpha: 7001, beta: 7002 }

type Tx = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
const pages: Record<string, Tx[]> = {}
const heads: Record<string, number> = {}

beforeAll(async () => {
  sb = await startSandbox({
    args: ['--api-key', KEY, '--block-time', '0', '--rate', '1000', '--burst', '1000', '--quota', '1000000'],
  })
  for (const network of sb.info.networks) {
    heads[network] = Number((await rpc<string>(sb.info.rpc_url, network, KEY, [{ method: 'eth_blockNumber' }]))[0])
    // Every page of the busy address (the paging test checks the walk itself).
    const items: Tx[] = []
    let params: Record<string, string | number> = { api_key: KEY, address: sb.info.demo_addresses[network]!.whale! }
    for (let page = 0; page < 100; page++) {
      const r = await http<{ items: Tx[]; next_page_params: Record<string, string | number> | null }>(
        dataUrl(sb.info.base_url, network, 'transactions', params),
      )
      expect(r.status).toBe(200)
      items.push(...r.json.items)
      if (!r.json.next_page_params) break
      params = { ...r.json.next_page_params, api_key: KEY, address: params.address! }
    }
    pages[network] = items
  }
}, SEED_TIMEOUT_MS)
afterAll(async () => {
  await sb?.stop()
})

describe.each(['alpha', 'beta'])('data API fields on %s', (network) => {
  it('passes the app schema and the stricter checks on every transaction', async () => {
    const r = await http(
      dataUrl(sb.info.base_url, network, 'transactions', {
        api_key: KEY,
        address: sb.info.demo_addresses[network]!.whale!,
      }),
    )
    expect(r.headers.get('content-type')).toBe('application/json')
    const parsed = transactionsResponseSchema.safeParse(r.json)
    expect(parsed.success, JSON.stringify(parsed.error?.issues.slice(0, 3))).toBe(true)
    expect(parsed.data?.unreadable).toEqual([])
    checkNextPageParams((r.json as { next_page_params: unknown }).next_page_params)
    for (const tx of pages[network]!) {
      expect(transactionSchema.safeParse(tx).success).toBe(true)
      checkTransaction(tx, heads[network]!)
    }
  }, 120_000)

  it('has every kind of transaction the issue asks for', () => {
    const txs = pages[network]!
    const whale = sb.info.demo_addresses[network]!.whale!
    const has = (label: string, pred: (tx: Tx) => boolean): Tx => {
      const found = txs.find(pred)
      expect(found, label).toBeDefined()
      return found!
    }
    has('plain coin transfer', (t) => t.tx_types.join() === 'coin_transfer' && t.raw_input === '0x' && t.value !== '0')
    has(
      'decoded token transfer',
      (t) =>
        t.tx_types.includes('token_transfer') && t.decoded_input?.method_call === 'transfer(address to, uint256 value)',
    )
    has(
      'contract call with decoded input',
      (t) =>
        t.tx_types.includes('contract_call') &&
        t.method === 'setNote' &&
        t.decoded_input.parameters[0].type === 'string',
    )
    const reverted = has(
      'revert with a reason',
      (t) => t.status === 'error' && t.revert_reason === 'Vault: insufficient balance',
    )
    expect(reverted.result).toBe('execution reverted')
    expect(reverted.token_transfers).toBeNull()
    has(
      'revert without a reason, undecodable selector',
      (t) => t.status === 'error' && t.revert_reason === null && t.method === '0xdeadbeef' && t.decoded_input === null,
    )
    has(
      'internal error in a successful transaction',
      (t) => t.status === 'ok' && t.has_error_in_internal_txs === true && t.method === 'tryAll',
    )
    has(
      'internal calls without error',
      (t) => t.status === 'ok' && t.has_error_in_internal_txs === false && t.method === 'splitEther',
    )
    const overflow = has('token transfer overflow', (t) => t.token_transfers_overflow === true)
    expect(overflow.token_transfers).toHaveLength(50)
    has(
      'appears only in a token transfer',
      (t) => t.from.hash !== whale && t.to?.hash !== whale && t.token_transfers?.some((x: Tx) => x.to.hash === whale),
    )
    has('ERC-721 transfer', (t) =>
      t.token_transfers?.some((x: Tx) => x.token.type === 'ERC-721' && /^\d+$/.test(x.total.token_id)),
    )
    has('ERC-1155 transfer', (t) =>
      t.token_transfers?.some((x: Tx) => x.token.type === 'ERC-1155' && x.total.value === '1'),
    )
    has('token burning', (t) => t.token_transfers?.some((x: Tx) => x.type === 'token_burning'))
  })

  it("reports the busy address's contract creation with the created contract", () => {
    const registry = sb.info.demo_addresses[network]!.registry!
    const creation = pages[network]!.find((t) => t.tx_types.includes('contract_creation'))!
    expect(creation).toBeDefined()
    expect(creation.tx_types).toEqual(['contract_creation'])
    expect(creation.to).toBeNull()
    expect(creation.created_contract).toMatchObject({
      hash: registry,
      is_contract: true,
      is_verified: true,
      name: 'Registry',
    })
    expect(creation.from.hash).toBe(sb.info.demo_addresses[network]!.whale)
    expect(creation.method).toBeNull()
  })

  it("computes gas, fees and status from the chain's receipts and blocks", async () => {
    const sample = pages[network]!.slice(0, 40)
    const receipts = await rpc<Record<string, string>>(
      sb.info.rpc_url,
      network,
      KEY,
      sample.map((t) => ({ method: 'eth_getTransactionReceipt', params: [t.hash] })),
    )
    const blocks = await rpc<Record<string, string>>(
      sb.info.rpc_url,
      network,
      KEY,
      sample.map((t) => ({ method: 'eth_getBlockByNumber', params: [`0x${t.block.toString(16)}`, false] })),
    )
    const txs = await rpc<Record<string, string>>(
      sb.info.rpc_url,
      network,
      KEY,
      sample.map((t) => ({ method: 'eth_getTransactionByHash', params: [t.hash] })),
    )
    sample.forEach((t, i) => {
      const receipt = receipts[i]!
      expect(t.gas_used).toBe(BigInt(receipt.gasUsed!).toString())
      expect(t.gas_price).toBe(BigInt(receipt.effectiveGasPrice!).toString())
      expect(t.status).toBe(receipt.status === '0x1' ? 'ok' : 'error')
      expect(t.base_fee_per_gas).toBe(BigInt(blocks[i]!.baseFeePerGas!).toString())
      expect(t.timestamp).toBe(new Date(Number(blocks[i]!.timestamp) * 1000).toISOString().replace('Z', '000Z'))
      expect(t.position).toBe(Number(receipt.transactionIndex))
      expect(t.nonce).toBe(Number(txs[i]!.nonce))
      expect(t.gas_limit).toBe(BigInt(txs[i]!.gas!).toString())
      expect(t.value).toBe(BigInt(txs[i]!.value!).toString())
      expect(t.raw_input).toBe(txs[i]!.input)
      expect(t.max_fee_per_gas).toBe(BigInt(txs[i]!.maxFeePerGas!).toString())
      expect(t.max_priority_fee_per_gas).toBe(BigInt(txs[i]!.maxPriorityFeePerGas!).toString())
    })
  })

  it('serves balances that pass the schema and the stricter token checks', async () => {
    for (const role of ['whale', 'holder']) {
      for (const endpoint of ['balance', 'balances']) {
        const r = await http<{ items: Tx[]; next_page_params: unknown }>(
          dataUrl(sb.info.base_url, network, endpoint, {
            api_key: KEY,
            address: sb.info.demo_addresses[network]![role]!,
          }),
        )
        expect(r.status).toBe(200)
        expect(balancesResponseSchema.safeParse(r.json).data?.unreadable).toEqual([])
        expect(Object.keys(r.json).sort()).toEqual(['items', 'next_page_params'])
        expect(r.json.next_page_params).toBeNull()
        expect(r.json.items.length).toBeGreaterThan(5)
        for (const item of r.json.items) {
          expect(Object.keys(item).sort()).toEqual(['token', 'token_id', 'token_instance', 'value'])
          checkToken(item.token)
          expect(item.value).toMatch(/^[1-9]\d*$/)
          if (item.token.type === 'ERC-20') {
            expect(item.token_id).toBeNull()
            expect(item.token_instance).toBeNull()
          } else {
            expect(item.token_id).toMatch(/^\d+$/)
            expect(item.token_instance).toMatchObject({ id: item.token_id })
            if (item.token.type === 'ERC-721') checkAddressObject(item.token_instance.owner)
          }
        }
      }
    }
  })

  it('gives some tokens market data and icons and others null, and serves the icons', async () => {
    const r = await http<{ items: Tx[] }>(
      dataUrl(sb.info.base_url, network, 'balance', { api_key: KEY, address: sb.info.demo_addresses[network]!.whale! }),
    )
    const tokens = new Map(r.json.items.map((i) => [i.token.symbol, i.token]))
    expect(tokens.get('SDL')).toMatchObject({ exchange_rate: '1.0003', decimals: '6' })
    expect(tokens.get('SGOV')!.decimals).toBe('18')
    expect(tokens.get('BAR')).toMatchObject({
      decimals: '0',
      exchange_rate: null,
      circulating_market_cap: null,
      volume_24h: null,
      icon_url: null,
    })
    expect(tokens.get('SITEM')!.type).toBe('ERC-1155')
    expect(tokens.get('SPUNK')!.type).toBe('ERC-721')
    const icon = await http(tokens.get('SDL')!.icon_url)
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toBe('image/svg+xml')
  })

  it('answers the address with no activity with empty lists', async () => {
    const empty = sb.info.demo_addresses[network]!.empty!
    const txs = await http(dataUrl(sb.info.base_url, network, 'transactions', { api_key: KEY, address: empty }))
    expect(txs.json).toEqual({ items: [], next_page_params: null })
    const balances = await http(dataUrl(sb.info.base_url, network, 'balance', { api_key: KEY, address: empty }))
    expect(balances.json).toEqual({ items: [], next_page_params: null })
    const [nonce] = await rpc<string>(sb.info.rpc_url, network, KEY, [
      { method: 'eth_getTransactionCount', params: [empty, 'latest'] },
    ])
    expect(nonce).toBe('0x0')
  })

  it('repeats the seeded chain bit for bit (block hash fingerprint)', async () => {
    const expected = SEED_FINGERPRINT[CHAIN_IDS[network]!]!
    const [block] = await rpc<{ hash: string }>(sb.info.rpc_url, network, KEY, [
      { method: 'eth_getBlockByNumber', params: [`0x${expected.head.toString(16)}`, false] },
    ])
    expect(block!.hash).toBe(expected.headHash)
  })
})

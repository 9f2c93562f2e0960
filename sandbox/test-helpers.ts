import { getAddress } from 'viem'
import { expect } from 'vitest'

/**
 * Helpers for the sandbox's integration tests: plain HTTP against a started sandbox, and
 * checks stricter than the app's zod schemas (exact key sets, checksummed addresses,
 * arithmetic between fields).
 */

export interface HttpResult<T = unknown> {
  status: number
  headers: Headers
  text: string
  json: T
}

export async function http<T = unknown>(url: string, init?: RequestInit): Promise<HttpResult<T>> {
  const response = await fetch(url, init)
  const text = await response.text()
  let json: unknown = undefined
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, text, json: json as T }
}

export function dataUrl(
  base: string,
  network: string,
  endpoint: string,
  params: Record<string, string | number>,
): string {
  const url = new URL(`${base}/api/v1/${network}/${endpoint}`)
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v))
  return url.toString()
}

/** JSON-RPC through the sandbox's public endpoint; a batch when given several calls. */
export async function rpc<T = unknown>(
  rpcUrl: string,
  network: string,
  key: string,
  calls: { method: string; params?: unknown[] }[],
): Promise<T[]> {
  const body = calls.map((c, i) => ({ jsonrpc: '2.0', id: i, method: c.method, params: c.params ?? [] }))
  const r = await http<{ id: number; result?: T; error?: unknown }[]>(`${rpcUrl}/${network}/${key}`, {
    method: 'POST',
    body: JSON.stringify(body),
  })
  expect(r.status).toBe(200)
  return [...r.json]
    .sort((a, b) => a.id - b.id)
    .map((x) => {
      if (x.error) throw new Error(`${calls[x.id]?.method}: ${JSON.stringify(x.error)}`)
      return x.result as T
    })
}

export const ADDRESS_KEYS = [
  'ens_domain_name',
  'hash',
  'implementations',
  'is_contract',
  'is_verified',
  'metadata',
  'name',
  'private_tags',
  'proxy_type',
  'public_tags',
  'watchlist_names',
]
export const TOKEN_KEYS = [
  'address',
  'circulating_market_cap',
  'decimals',
  'exchange_rate',
  'holders',
  'icon_url',
  'name',
  'symbol',
  'total_supply',
  'type',
  'volume_24h',
]
export const TX_KEYS = [
  'actions',
  'base_fee_per_gas',
  'block',
  'confirmation_duration',
  'confirmations',
  'created_contract',
  'decoded_input',
  'exchange_rate',
  'fee',
  'from',
  'gas_limit',
  'gas_price',
  'gas_used',
  'has_error_in_internal_txs',
  'hash',
  'max_fee_per_gas',
  'max_priority_fee_per_gas',
  'method',
  'nonce',
  'position',
  'priority_fee',
  'raw_input',
  'result',
  'revert_reason',
  'status',
  'timestamp',
  'to',
  'token_transfers',
  'token_transfers_overflow',
  'tx_burnt_fee',
  'tx_tag',
  'tx_types',
  'type',
  'value',
]
export const PAGE_KEYS = [
  'api_key',
  'apikey',
  'block_number',
  'fee',
  'hash',
  'index',
  'inserted_at',
  'items_count',
  'value',
]
const DECIMAL = /^(0|[1-9]\d*)$/
const DECIMAL_NUMBER = /^(0|[1-9]\d*)(\.\d+)?$/
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const TX_TYPES = new Set(['coin_transfer', 'token_transfer', 'contract_call', 'contract_creation', 'token_creation'])

type Obj = Record<string, unknown>
const sortedKeys = (o: unknown): string[] => Object.keys(o as Obj).sort()

export function checkAddressObject(a: unknown): void {
  expect(sortedKeys(a)).toEqual(ADDRESS_KEYS)
  const o = a as Obj
  expect(getAddress(o.hash as string)).toBe(o.hash)
  expect(o.ens_domain_name === null || typeof o.ens_domain_name === 'string').toBe(true)
  for (const k of ['implementations', 'private_tags', 'public_tags', 'watchlist_names'])
    expect(Array.isArray(o[k])).toBe(true)
  expect(typeof o.is_contract).toBe('boolean')
  expect(typeof o.is_verified).toBe('boolean')
  if (o.is_verified) expect(o.is_contract).toBe(true)
  expect(o.metadata === null || typeof o.metadata === 'object').toBe(true)
  expect(o.name === null || typeof o.name === 'string').toBe(true)
  expect(o.proxy_type === null || typeof o.proxy_type === 'string').toBe(true)
}

export function checkToken(t: unknown): void {
  expect(sortedKeys(t)).toEqual(TOKEN_KEYS)
  const o = t as Obj
  expect(getAddress(o.address as string)).toBe(o.address)
  expect(['ERC-20', 'ERC-721', 'ERC-1155']).toContain(o.type)
  expect(o.decimals).toMatch(DECIMAL)
  expect(o.holders).toMatch(DECIMAL)
  expect(o.total_supply).toMatch(DECIMAL)
  expect(typeof o.name).toBe('string')
  expect(typeof o.symbol).toBe('string')
  const market = [o.exchange_rate, o.circulating_market_cap, o.volume_24h]
  for (const v of market) if (v !== null) expect(v).toMatch(DECIMAL_NUMBER)
  // All or nothing: a token with a rate has a market cap and volume.
  expect(new Set(market.map((v) => v === null)).size).toBe(1)
  expect(o.icon_url === null || /^https?:\/\/\S+$/.test(o.icon_url as string)).toBe(true)
}

export function checkTransaction(tx: unknown, head: number): void {
  expect(sortedKeys(tx)).toEqual([...TX_KEYS].sort())
  const o = tx as Obj
  for (const k of ['base_fee_per_gas', 'gas_limit', 'gas_price', 'gas_used', 'priority_fee', 'tx_burnt_fee', 'value'])
    expect(o[k]).toMatch(DECIMAL)
  for (const k of ['max_fee_per_gas', 'max_priority_fee_per_gas']) expect(o[k]).toMatch(DECIMAL)
  for (const k of ['block', 'confirmations', 'nonce', 'position', 'type'])
    expect(Number.isInteger(o[k]) && (o[k] as number) >= 0).toBe(true)
  expect(o.hash).toMatch(/^0x[0-9a-f]{64}$/)
  expect(o.raw_input).toMatch(/^0x([0-9a-f]{2})*$/)
  expect(o.timestamp).toMatch(ISO)
  expect(o.type).toBe(2)
  expect(o.confirmations).toBe(head - (o.block as number))
  const duration = o.confirmation_duration as number[]
  expect(duration).toHaveLength(2)
  expect(duration.every((d) => Number.isInteger(d) && d >= 0) && duration[0]! <= duration[1]!).toBe(true)
  expect(o.fee).toEqual({
    type: 'actual',
    value: (BigInt(o.gas_used as string) * BigInt(o.gas_price as string)).toString(),
  })
  expect(o.tx_burnt_fee).toBe((BigInt(o.base_fee_per_gas as string) * BigInt(o.gas_used as string)).toString())
  expect(o.priority_fee).toBe(
    ((BigInt(o.gas_price as string) - BigInt(o.base_fee_per_gas as string)) * BigInt(o.gas_used as string)).toString(),
  )
  expect(BigInt(o.gas_used as string) <= BigInt(o.gas_limit as string)).toBe(true)
  expect(BigInt(o.gas_price as string) <= BigInt(o.max_fee_per_gas as string)).toBe(true)
  expect(
    BigInt(o.gas_price as string) - BigInt(o.base_fee_per_gas as string) <=
      BigInt(o.max_priority_fee_per_gas as string),
  ).toBe(true)
  checkAddressObject(o.from)
  if (o.to === null) expect(o.created_contract).not.toBeNull()
  else checkAddressObject(o.to)
  if (o.created_contract !== null) checkAddressObject(o.created_contract)
  expect(['ok', 'error']).toContain(o.status)
  if (o.status === 'ok') {
    expect(o.result).toBe('success')
    expect(o.revert_reason).toBeNull()
  } else {
    expect(typeof o.result).toBe('string')
    expect(o.result).not.toBe('success')
    expect(o.revert_reason === null || typeof o.revert_reason === 'string').toBe(true)
  }
  expect(typeof o.has_error_in_internal_txs).toBe('boolean')
  expect(o.exchange_rate === null || DECIMAL_NUMBER.test(o.exchange_rate as string)).toBe(true)
  expect(Array.isArray(o.actions)).toBe(true)
  expect(o.tx_tag === null || typeof o.tx_tag === 'string').toBe(true)
  const types = o.tx_types as string[]
  expect(types.length).toBeGreaterThan(0)
  for (const t of types) expect(TX_TYPES.has(t)).toBe(true)
  if (o.raw_input === '0x') expect(o.method).toBeNull()
  else if (o.to !== null) expect(typeof o.method).toBe('string')
  if (o.decoded_input !== null) {
    const d = o.decoded_input as Obj
    expect(sortedKeys(d)).toEqual(['method_call', 'method_id', 'parameters'])
    expect(d.method_id).toBe((o.raw_input as string).slice(2, 10))
    expect(d.method_call).toMatch(new RegExp(`^${o.method as string}\\(`))
    for (const p of d.parameters as Obj[]) expect(sortedKeys(p)).toEqual(['name', 'type', 'value'])
  }
  if (o.token_transfers === null) {
    expect(o.token_transfers_overflow).toBeNull()
  } else {
    const transfers = o.token_transfers as Obj[]
    expect(transfers.length).toBeGreaterThan(0)
    expect(transfers.length).toBeLessThanOrEqual(50)
    expect(typeof o.token_transfers_overflow).toBe('boolean')
    expect(types).toContain('token_transfer')
    for (const t of transfers) {
      expect(t.transaction_hash).toBe(o.hash)
      expect(t.block_number).toBe(o.block)
      expect(t.timestamp).toBe(o.timestamp)
      expect(['token_transfer', 'token_minting', 'token_burning']).toContain(t.type)
      checkAddressObject(t.from)
      checkAddressObject(t.to)
      checkToken(t.token)
    }
  }
}

export function checkNextPageParams(p: unknown): void {
  expect(sortedKeys(p)).toEqual(PAGE_KEYS)
  const o = p as Obj
  expect(o.api_key).toBe('')
  expect(o.apikey).toBe('')
  expect(o.fee).toMatch(DECIMAL)
  expect(o.value).toMatch(DECIMAL)
  expect(o.hash).toMatch(/^0x[0-9a-f]{64}$/)
  expect(o.inserted_at).toMatch(ISO)
  for (const k of ['block_number', 'index', 'items_count'])
    expect(Number.isInteger(o[k]) && (o[k] as number) >= 0).toBe(true)
}

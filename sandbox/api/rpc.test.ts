import { createPublicClient, http as viemHttp, parseAbi, parseAbiItem, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rpcResponseSchema } from '@shared/domain/service-schemas'
import { http } from '../test-helpers'
import { SEED_TIMEOUT_MS, startSandbox, type StartedSandbox } from '../testing'

/** The RPC endpoint: spec 2.6 shapes, JSON-RPC errors, the method allowlist, and viem as a client. */
let sb: StartedSandbox
const KEY = 'rpc-test-key'
const url = (network = 'alpha') => `${sb.info.rpc_url}/${network}/${KEY}`
const post = <T = unknown>(body: unknown, network = 'alpha') =>
  http<T>(url(network), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

beforeAll(async () => {
  sb = await startSandbox({
    args: ['--api-key', KEY, '--block-time', '0', '--admin', '--rate', '1000', '--burst', '1000'],
  })
}, SEED_TIMEOUT_MS)
afterAll(async () => {
  await sb?.stop()
})

describe('JSON-RPC endpoint', () => {
  it('answers eth_blockNumber as spec 2.6 shows', async () => {
    const r = await post({ jsonrpc: '2.0', method: 'eth_blockNumber', params: [], id: 42 })
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('application/json')
    expect(rpcResponseSchema.safeParse(r.json).success).toBe(true)
    expect(Object.keys(r.json as object).sort()).toEqual(['id', 'jsonrpc', 'result'])
    expect(r.json).toMatchObject({ jsonrpc: '2.0', id: 42, result: expect.stringMatching(/^0x[1-9a-f][0-9a-f]*$/) })
  })

  it('answers parse errors, invalid requests and empty batches with the standard codes', async () => {
    const cases: [unknown, number, unknown][] = [
      ['{"jsonrpc": "2.0", "method": ', -32700, null],
      ['{}', -32600, null],
      [[], -32600, null],
      [{ jsonrpc: '1.0', id: 5, method: 'eth_chainId' }, -32600, 5],
      [{ jsonrpc: '2.0', id: { a: 1 }, method: 'eth_chainId' }, -32600, null],
      [{ jsonrpc: '2.0', id: 6, method: 7 }, -32600, 6],
      [{ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: 'x' }, -32600, 7],
      [Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId' })), -32600, null],
    ]
    for (const [body, code, id] of cases) {
      const r = await post<{ jsonrpc: string; id: unknown; error: { code: number; message: string } }>(body)
      expect(r.status).toBe(200)
      expect(r.json.jsonrpc).toBe('2.0')
      expect(r.json.id).toBe(id)
      expect(r.json.error.code).toBe(code)
      expect(r.json.error.message.length).toBeGreaterThan(0)
    }
  })

  it('answers -32601 for anything outside eth_/net_/web3_ and for node-key methods, without touching the chain', async () => {
    const before = (await post<{ result: string }>({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' })).json.result
    const forbidden = [
      'anvil_mine',
      'evm_mine',
      'evm_setNextBlockTimestamp',
      'evm_snapshot',
      'debug_traceCall',
      'debug_setHead',
      'trace_transaction',
      'hardhat_mine',
      'anvil_setBalance',
      'foo',
      'eth_sendTransaction',
      'eth_sign',
      'eth_signTypedData_v4',
    ]
    for (const method of forbidden) {
      const r = await post<{ id: number; error: { code: number; message: string } }>({
        jsonrpc: '2.0',
        id: 9,
        method,
        params: [],
      })
      expect(r.json.error.code, method).toBe(-32601)
      expect(r.json.error.message).toContain(method)
      expect(r.json.id).toBe(9)
    }
    // The one trace method offered (provider-modes.ts) takes only the callTracer: no struct logs.
    const raw = await post<{ error: { code: number; message: string } }>({
      jsonrpc: '2.0',
      id: 9,
      method: 'debug_traceTransaction',
      params: [`0x${'00'.repeat(32)}`],
    })
    expect(raw.json.error).toEqual({
      code: -32602,
      message: 'only the callTracer is offered: pass {"tracer":"callTracer"}',
    })
    expect((await post<{ result: string }>({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber' })).json.result).toBe(
      before,
    )
    expect((await post<{ result: unknown }>({ jsonrpc: '2.0', id: 1, method: 'eth_accounts' })).json.result).toEqual([])
    expect((await post<{ result: string }>({ jsonrpc: '2.0', id: 1, method: 'net_version' })).json.result).toBe('7001')
    expect(
      (await post<{ result: string }>({ jsonrpc: '2.0', id: 1, method: 'web3_clientVersion' })).json.result,
    ).toMatch(/anvil/i)
  })

  it('keeps the order and ids of a mixed batch, duplicates and strings included', async () => {
    const r = await post<{ id: unknown; result?: string; error?: { code: number } }[]>(
      [
        { jsonrpc: '2.0', id: 'a', method: 'eth_chainId' },
        { jsonrpc: '2.0', id: 2, method: 'evm_mine' },
        1,
        { jsonrpc: '2.0', id: 2, method: 'eth_chainId' },
        { jsonrpc: '2.0', method: 'eth_chainId' },
      ],
      'beta',
    )
    expect(r.json).toEqual([
      { jsonrpc: '2.0', id: 'a', result: '0x1b5a' },
      { jsonrpc: '2.0', id: 2, error: expect.objectContaining({ code: -32601 }) },
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) },
      { jsonrpc: '2.0', id: 2, result: '0x1b5a' },
    ])
  })

  it('returns nothing for notifications only, and passes chain errors through', async () => {
    const n = await post({ jsonrpc: '2.0', method: 'eth_chainId' })
    expect(n.status).toBe(204)
    expect(n.text).toBe('')
    const bad = await post<{ error: { code: number } }>({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_getBalance',
      params: ['not-an-address'],
    })
    expect(bad.json.error.code).toBe(-32602)
    // A call that reverts comes back as the node's error with the revert data.
    const vault = sb.info.demo_addresses.alpha!.vault!
    const data = `0x2e1a7d4d${(10n ** 30n).toString(16).padStart(64, '0')}`
    const revert = await post<{ error: { code: number; message: string; data?: string } }>({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [{ to: vault, data }, 'latest'],
    })
    expect(revert.json.error.message).toContain('Vault: insufficient balance')
  })

  it('refuses bodies over 1 MiB with 413 JSON', async () => {
    const r = await post(`[${'"x",'.repeat(300_000)}"x"]`)
    expect(r.status).toBe(413)
    expect(r.json).toMatchObject({ error: 'payload_too_large' })
  })
})

describe('viem against the RPC endpoint', () => {
  const ERC20 = parseAbi([
    'function balanceOf(address) view returns (uint256)',
    'function symbol() view returns (string)',
  ])

  it('getBlockNumber, getChainId, getBalance and readContract', async () => {
    const client = createPublicClient({ transport: viemHttp(url('beta')) })
    const demo = sb.info.demo_addresses.beta!
    expect(await client.getChainId()).toBe(7002)
    const height = await client.getBlockNumber()
    expect(height).toBeGreaterThan(500n)
    expect(await client.getBalance({ address: demo.whale! as Address })).toBeGreaterThan(0n)
    expect(await client.getBalance({ address: demo.empty! as Address })).toBe(0n)
    expect(
      await client.readContract({ address: demo.token_erc20_6! as Address, abi: ERC20, functionName: 'symbol' }),
    ).toBe('SDL')
    expect(
      await client.readContract({
        address: demo.token_erc20_6! as Address,
        abi: ERC20,
        functionName: 'balanceOf',
        args: [demo.whale! as Address],
      }),
    ).toBeGreaterThan(0n)
  })

  it('getLogs decodes the ERC-20 transfers of a block range', async () => {
    const client = createPublicClient({ transport: viemHttp(url('alpha')) })
    const token = sb.info.demo_addresses.alpha!.token_erc20_0! as Address
    const logs = await client.getLogs({
      address: token,
      event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'),
      fromBlock: 0n,
      toBlock: 300n,
    })
    expect(logs.length).toBeGreaterThan(10)
    for (const log of logs) {
      expect(log.address.toLowerCase()).toBe(token.toLowerCase())
      expect(typeof log.args.value).toBe('bigint')
      expect(log.blockNumber! <= 300n).toBe(true)
    }
  })

  it('sends a batch as one HTTP request, counted once', async () => {
    const stats = async () =>
      (await http<{ keys: Record<string, { by_endpoint: { rpc: number } }> }>(`${sb.info.base_url}/__sandbox/stats`))
        .json.keys[KEY]!.by_endpoint.rpc
    const client = createPublicClient({ transport: viemHttp(url('alpha'), { batch: { wait: 20 } }) })
    const demo = sb.info.demo_addresses.alpha!
    const before = await stats()
    const [height, balance, chainId, code] = await Promise.all([
      client.getBlockNumber({ cacheTime: 0 }),
      client.getBalance({ address: demo.whale! as Address }),
      client.getChainId(),
      client.getCode({ address: demo.vault! as Address }),
    ])
    expect(height).toBeGreaterThan(500n)
    expect(balance).toBeGreaterThan(0n)
    expect(chainId).toBe(7001)
    expect(code!.length).toBeGreaterThan(100)
    expect((await stats()) - before).toBe(1)
  })
})

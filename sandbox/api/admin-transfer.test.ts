import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { http } from '../test-helpers'
import { SEED_TIMEOUT_MS, startSandbox, type StartedSandbox } from '../testing'

/** `--no-batch` (a provider without JSON-RPC batches) and POST /__sandbox/transfer. */
const KEY = 'transfer-test-key'
let sb: StartedSandbox
let plain: StartedSandbox

beforeAll(async () => {
  ;[sb, plain] = await Promise.all([
    startSandbox({
      args: ['--api-key', KEY, '--admin', '--no-batch', '--block-time', '0', '--rate', '1000', '--burst', '1000'],
    }),
    startSandbox({ args: ['--api-key', KEY, '--block-time', '0'] }),
  ])
}, SEED_TIMEOUT_MS)
afterAll(async () => {
  await Promise.all([sb?.stop(), plain?.stop()])
})

const rpc = <T = unknown>(body: unknown) =>
  http<T>(`${sb.info.rpc_url}/alpha/${KEY}`, { method: 'POST', body: JSON.stringify(body) })
const call = (method: string, params: unknown[] = [], id = 1) => ({ jsonrpc: '2.0', id, method, params })
const transfer = (body: unknown, base = sb.info.base_url) =>
  http<Record<string, unknown>>(`${base}/__sandbox/transfer`, { method: 'POST', body: JSON.stringify(body) })

describe('--no-batch', () => {
  it('answers any batch with one -32600 error object, and single calls as usual', async () => {
    const batch = await rpc([call('eth_blockNumber'), call('eth_chainId', [], 2)])
    expect(batch.status).toBe(200)
    expect(batch.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'batch requests are not supported' },
    })
    const single = await rpc<{ result: string }>(call('eth_chainId'))
    expect(single.json).toEqual({ jsonrpc: '2.0', id: 1, result: '0x1b59' })
  })
})

describe('POST /__sandbox/transfer', () => {
  const to = '0x00000000000000000000000000000000000a11ce'
  const balanceOf = async (): Promise<bigint> =>
    BigInt((await rpc<{ result: string }>(call('eth_getBalance', [to, 'latest']))).json.result)
  const head = async (): Promise<number> => Number((await rpc<{ result: string }>(call('eth_blockNumber'))).json.result)

  it('sends native coin and mines it at once (the chain is otherwise frozen)', async () => {
    const before = await balanceOf()
    const h0 = await head()
    const r = await transfer({ network: 'alpha', to, amount: '12345' })
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({
      kind: 'native',
      token: null,
      block: h0 + 1,
      hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    })
    expect(await balanceOf()).toBe(before + 12345n)
  })

  it('mines empty blocks first when asked (`after`), and the index goes on past them', async () => {
    const h0 = await head()
    const r = await transfer({ network: 'alpha', to, amount: '7', after: 40 })
    expect(r.status).toBe(200)
    // A block for anything pending, the 40 empty ones, then the transfer's own.
    expect(r.json).toMatchObject({ block: h0 + 42 })
    expect(await head()).toBe(h0 + 42)
    const logs = await rpc<{ result: unknown[] }>(
      call('eth_getLogs', [{ fromBlock: `0x${(h0 + 1).toString(16)}`, toBlock: `0x${(h0 + 41).toString(16)}` }]),
    )
    expect(logs.json.result).toEqual([])
  })

  it('mints ERC-20, ERC-721 and ERC-1155 tokens to the address, with their standard events', async () => {
    const topics = {
      erc20: '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
      erc721: '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
      erc1155: '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62',
    }
    for (const kind of ['erc20', 'erc721', 'erc1155'] as const) {
      const r = await transfer({ network: 'alpha', to, kind })
      expect(r.status).toBe(200)
      const block = `0x${Number(r.json.block).toString(16)}`
      const logs = await rpc<{ result: { address: string; topics: string[] }[] }>(
        call('eth_getLogs', [{ fromBlock: block, toBlock: block, address: r.json.token }]),
      )
      const log = logs.json.result.find((l) => l.topics[0] === topics[kind])
      expect(log, kind).toBeDefined()
      // Transfer(from, to, …) and TransferSingle(operator, from, to, …): the receiver's topic.
      expect(log!.topics[kind === 'erc1155' ? 3 : 2]).toBe(`0x${'0'.repeat(24)}${to.slice(2)}`)
    }
  })

  it('names what is wrong with a bad request, and is absent without --admin', async () => {
    expect((await transfer({ network: 'alpha', to: '0x12' })).json).toMatchObject({
      error: 'invalid_parameter',
      parameter: 'to',
    })
    expect((await transfer({ network: 'alpha', to, kind: 'erc777' })).json).toMatchObject({ parameter: 'kind' })
    expect((await transfer({ network: 'gamma', to })).status).toBe(404)
    expect((await http(`${sb.info.base_url}/__sandbox/transfer`)).status).toBe(405)
    expect((await transfer({ network: 'alpha', to }, plain.info.base_url)).status).toBe(404)
  })
})

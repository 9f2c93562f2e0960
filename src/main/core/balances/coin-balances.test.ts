import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RpcBatchItem } from '@shared/bridge/contract'
import { MULTICALL3_ADDRESS } from '@shared/domain/contracts'
import type { RunningSandbox } from '../sandbox/sandbox-launcher'
import type { RpcCallSpec } from '../service/service-types'
import { tsxSandboxLauncher } from '../testing/sandbox-harness'
import { bytecodeModule, compileBalanceReader } from './compile-balance-reader'
import { CoinBalances } from './coin-balances'

/**
 * Against the real sandbox (anvil behind its RPC proxy): alpha has Multicall3 at the canonical
 * address, beta has none. A fault is a refusal injected into the answers.
 */
let sandbox: RunningSandbox
const sent: string[][] = []

async function post(network: string, body: unknown): Promise<unknown> {
  const { rpc_url, api_key } = sandbox.info
  const r = await fetch(`${rpc_url}/${network}/${api_key}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return r.json()
}

const clientOf = (refuse?: (c: RpcCallSpec) => RpcBatchItem | null) => ({
  rpcCalls: async (network: string, specs: RpcCallSpec[]): Promise<RpcBatchItem[]> => {
    sent.push(specs.map((s) => s.method))
    const body = specs.map((c, i) => ({ jsonrpc: '2.0', id: i, method: c.method, params: c.params }))
    const answers = (await post(network, body)) as {
      id: number
      result?: unknown
      error?: { code: number; message: string }
    }[]
    return specs.map((spec, i): RpcBatchItem => {
      const refused = refuse?.(spec)
      if (refused) return refused
      const a = answers.find((x) => x.id === i)!
      return a.error ? { ok: false, code: a.error.code, message: a.error.message } : { ok: true, result: a.result }
    })
  },
})

let addresses: string[] = []

beforeAll(async () => {
  sandbox = await tsxSandboxLauncher(['--block-time', '0', '--rate', '1000', '--burst', '1000']).launch({})
  const demo = sandbox.info.demo_addresses.alpha!
  addresses = [demo.whale!, demo.holder!, demo.empty!, '0x00000000000000000000000000000000000000b2'].map((a) =>
    a.toLowerCase(),
  )
}, 300_000)

afterAll(async () => {
  await sandbox?.stop()
})

async function truth(network: string): Promise<{ head: number; balances: bigint[] }> {
  const answers = (await post(network, [
    { jsonrpc: '2.0', id: 0, method: 'eth_blockNumber', params: [] },
    ...addresses.map((a, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'eth_getBalance', params: [a, 'latest'] })),
  ])) as { id: number; result: string }[]
  const byId = (i: number): string => answers.find((x) => x.id === i)!.result
  return { head: Number(byId(0)), balances: addresses.map((_, i) => BigInt(byId(i + 1))) }
}

const user = { priority: 'user' as const }

describe('coin balances in one eth_call', () => {
  it('asks for Multicall3 once (riding with a deployless read), then reads through Multicall3 where it is', async () => {
    const balances = new CoinBalances()
    const client = clientOf()
    for (const network of ['alpha', 'beta']) {
      const expected = await truth(network)
      sent.length = 0
      const first = await balances.read(client, network, addresses, user)
      expect(first.route).toBe('deployless')
      expect(sent).toEqual([['eth_getCode', 'eth_call']])
      expect(first.head).toBe(expected.head)
      expect(addresses.map((a) => first.balances.get(a))).toEqual(expected.balances)
      sent.length = 0
      const second = await balances.read(client, network, addresses, user)
      expect(second.route).toBe(network === 'alpha' ? 'multicall3' : 'deployless')
      expect(sent).toEqual([['eth_call']])
      expect(second.head).toBe(expected.head)
      expect(addresses.map((a) => second.balances.get(a))).toEqual(expected.balances)
      expect(balances.callCount(network, 50)).toBe(1)
    }
    expect(expectedNonZero(await truth('alpha'))).toBe(true)
  })

  it('falls back to one eth_getBalance per address where eth_call is refused, and remembers it', async () => {
    const balances = new CoinBalances()
    const refuse = (c: RpcCallSpec): RpcBatchItem | null =>
      c.method === 'eth_call' ? { ok: false, code: -32601, message: 'the method eth_call does not exist' } : null
    const expected = await truth('beta')
    const answer = await balances.read(clientOf(refuse), 'beta', addresses, user)
    expect(answer.route).toBe('single')
    expect(addresses.map((a) => answer.balances.get(a))).toEqual(expected.balances)
    expect(answer.head).toBe(expected.head)
    expect(balances.route('beta')).toBe('single')
    expect(balances.callCount('beta', 50)).toBe(51)
  })

  it('keeps its route after a rate refusal (that read alone goes single)', async () => {
    const balances = new CoinBalances()
    await balances.read(clientOf(), 'beta', addresses, user)
    const limited = (c: RpcCallSpec): RpcBatchItem | null =>
      c.method === 'eth_call' ? { ok: false, code: -32005, message: 'limit exceeded' } : null
    const answer = await balances.read(clientOf(limited), 'beta', addresses, user)
    expect(answer.route).toBe('single')
    expect(balances.route('beta')).toBe('deployless')
  })

  it('reads through Multicall3 where a call without `to` is refused but Multicall3 is there', async () => {
    const balances = new CoinBalances()
    const noDeploy = (c: RpcCallSpec): RpcBatchItem | null =>
      c.method === 'eth_call' && !(c.params[0] as { to?: string }).to
        ? { ok: false, code: -32000, message: 'missing "to" field' }
        : null
    const answer = await balances.read(clientOf(noDeploy), 'alpha', addresses, user)
    expect(answer.route).toBe('multicall3')
    expect(addresses.map((a) => answer.balances.get(a))).toEqual((await truth('alpha')).balances)
  })

  it('the committed bytecode is what solc makes of BalanceReader.sol today (`npm run compile:balance-reader` if not)', async () => {
    const committed = readFileSync(join(import.meta.dirname, 'balance-reader-bytecode.ts'), 'utf8')
    expect(bytecodeModule(await compileBalanceReader()) === committed).toBe(true)
    expect(MULTICALL3_ADDRESS).toBe('0xcA11bde05977b3631167028862bE2a173976CA11')
  }, 60_000)
})

/** The whale holds coin: a reader answering zeros everywhere would not pass. */
const expectedNonZero = (t: { balances: bigint[] }): boolean => t.balances[0]! > 0n

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { testCore } from '../testing/test-core'
import type { RunningSandbox } from '../sandbox/sandbox-launcher'
import { admin, tsxSandboxLauncher } from '../testing/sandbox-harness'
import { rpcClientFixture } from '../testing/rpc-client-fixture'
import { BlockTags } from '../height/block-tags'
import { TRANSFER_TOPIC } from '@shared/domain/events'

/**
 * The client against real sandboxes playing providers (sandbox/api/provider-modes.ts):
 * A bills per call plus one per batch, caps batches at 50 (geth's "batch too large"), caps
 * eth_getLogs at 100 blocks (-32602 "query exceeds max block range 100"), knows no
 * `finalized`, and refuses every 10th call of a batch for rate. B bills per call, caps batches
 * at 20 (HTTP 413), answers log ranges over 30 blocks in Infura's words, and refuses the day's
 * quota with HTTP 402. The client's count must equal what the sandbox billed.
 */
const COMMON = ['--block-time', '0', '--rate', '1000', '--burst', '1000', '--admin']
const A_ARGS = [
  ...COMMON,
  ...['--billing', 'call-plus-batch', '--batch-cap', '50', '--batch-refusal', 'geth'],
  ...['--log-cap', '100', '--log-dialect', 'max-range', '--no-finalized', '--item-errors', '10'],
]
const B_ARGS = [
  ...COMMON,
  ...['--billing', 'call', '--batch-cap', '20', '--batch-refusal', 'http-413'],
  ...['--log-cap', '30', '--log-dialect', 'infura', '--quota', '2000', '--quota-402'],
]

let a: RunningSandbox
let b: RunningSandbox
beforeAll(async () => {
  ;[a, b] = await Promise.all([tsxSandboxLauncher(A_ARGS).launch({}), tsxSandboxLauncher(B_ARGS).launch({})])
}, 600_000)
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()])
})

const clientOf = (sb: RunningSandbox, billing: 'call' | 'call-plus-batch') =>
  rpcClientFixture(sb.info.base_url, { billing, key: sb.info.api_key })
const balances = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    method: 'eth_getBalance',
    params: [`0x${(0xa11ce00 + i).toString(16).padStart(40, '0')}`, 'latest'],
  }))
const opts = { priority: 'user' as const }
const head = async (sb: RunningSandbox): Promise<number> => {
  const { client } = clientOf(sb, 'call')
  return Number(await client.rpc('alpha', { method: 'eth_blockNumber', params: [] }, opts))
}
const logKeys = (logs: unknown[]): string[] =>
  logs.map((l) => {
    const x = l as { blockNumber: string; logIndex: string; transactionHash: string }
    return `${x.blockNumber}/${x.logIndex}/${x.transactionHash}`
  })

describe('a sandbox playing a provider', () => {
  it('batch cap 50 (geth), per call plus one, item refusals: every call answered, counted as the sandbox bills', async () => {
    const { client, limiter } = clientOf(a, 'call-plus-batch')
    const before = await admin(a.info).stats(a.info.api_key)
    const meter = { requests: 0, units: 0 }
    const out = await client.rpcCalls('alpha', balances(104), { ...opts, meter })
    expect(out.every((r) => r.ok)).toBe(true)
    expect(client.batchSupport('alpha')).toBe(true)
    expect(client.unitsFor('alpha', 104)).toBe(104 + 3)
    const after = await admin(a.info).stats(a.info.api_key)
    expect(meter.units).toBe(after.units - before.units)
    expect(limiter.state().usedToday).toBe(meter.units)
  })

  it('batch cap 20 (HTTP 413, no number): halved until taken, then sent in that size', async () => {
    const { client } = clientOf(b, 'call')
    const before = await admin(b.info).stats(b.info.api_key)
    const meter = { requests: 0, units: 0 }
    expect((await client.rpcCalls('alpha', balances(104), { ...opts, meter })).every((r) => r.ok)).toBe(true)
    expect(client.unitsFor('alpha', 104)).toBe(104)
    const again = { requests: 0, units: 0 }
    await client.rpcCalls('alpha', balances(104), { ...opts, meter: again })
    const size = client.batchSize('alpha')
    expect(size).toBeGreaterThanOrEqual(10)
    expect(size).toBeLessThanOrEqual(20)
    expect(again).toEqual({ requests: Math.ceil(104 / size), units: 104 })
    const after = await admin(b.info).stats(b.info.api_key)
    expect(meter.units + again.units).toBe(after.units - before.units)
  })

  it('log caps in two dialects read the whole chain alike; the range cap is learnt, the result-count one is not', async () => {
    const to = await head(a)
    expect(to).toBe(await head(b))
    expect(to).toBeGreaterThan(300)
    const query = { network: 'alpha', fromBlock: 0, toBlock: to, topics: [TRANSFER_TOPIC] }
    const ca = clientOf(a, 'call-plus-batch').client
    const cb = clientOf(b, 'call').client
    const [la, lb] = await Promise.all([ca.logs.getLogsChunked(query, opts), cb.logs.getLogsChunked(query, opts)])
    expect(la.length).toBeGreaterThan(100)
    expect(logKeys(la)).toEqual(logKeys(lb))
    expect(ca.logs.learntCap('alpha')).toBe(100)
    expect(ca.logs.plannedLogCalls(0, to, 'alpha')).toBe(Math.ceil((to + 1) / 100))
    expect(cb.logs.learntCap('alpha')).toBeNull()
  })

  it('no finalized tag: refused once, then not asked again on that network', async () => {
    const { client } = clientOf(a, 'call-plus-batch')
    const tags = new BlockTags()
    const [latest, finalized] = await client.rpcCalls(
      'alpha',
      [
        { method: 'eth_getBlockByNumber', params: ['latest', false] },
        { method: 'eth_getBlockByNumber', params: ['finalized', false] },
      ],
      opts,
    )
    expect(latest?.ok).toBe(true)
    expect(finalized).toMatchObject({ ok: false, code: -32602, message: expect.stringContaining('unknown block tag') })
    expect(tags.judge('alpha', 'finalized', finalized)).toBe(true)
    expect(tags.known('alpha', 'finalized')).toBe(false)
  })

  it("HTTP 402 at the sandbox's quota: used up until 00:00 UTC, and the meter follows", async () => {
    const { client, limiter } = clientOf(b, 'call')
    let error: unknown = null
    for (let i = 0; i < 200 && error === null; i++)
      error = await client.rpcCalls('alpha', balances(20), opts).then(
        () => null,
        (e: unknown) => e,
      )
    expect(error).toMatchObject({
      kind: 'quota-exhausted',
      message: 'Daily quota used up at the service (HTTP 402 Payment Required) until 00:00 UTC.',
    })
    expect(limiter.state().leftToday).toBe(0)
  })
})

describe('the app on a sandbox billing per call', () => {
  it('takes the sandbox profile\'s unit from the sandbox, keeps the live height without "finalized", and counts what the sandbox bills', async () => {
    // The running sandbox A, handed to the app as its own (stopped by this file, not the app).
    const { core, call, dispose } = await testCore({ launch: async () => ({ ...a, stop: async () => {} }) })
    try {
      await call('profiles.activate', { id: 'sandbox' })
      await call('data.balances', { network: 'alpha', address: '0x0000000000000000000000000000000000000001' })
      const before = await admin(a.info).stats(a.info.api_key)
      const used = (await call('limiter.state', {})).usedToday
      expect((await call('profiles.list', {})).find((p) => p.id === 'sandbox')?.billing).toBe('call-plus-batch')
      core.setVisible(true)
      await vi.waitFor(
        async () => expect((await call('height.get', {})).map((h) => h.height !== null)).toEqual([true, true]),
        { timeout: 20_000, interval: 200 },
      )
      core.setVisible(false)
      await vi.waitFor(async () => expect((await call('limiter.state', {})).inFlight).toBe(0), {
        timeout: 20_000,
        interval: 100,
      })
      const state = await call('limiter.state', {})
      expect(state.billing).toBe('call-plus-batch')
      const after = await admin(a.info).stats(a.info.api_key)
      expect(state.usedToday - used).toBe(after.units - before.units)
    } finally {
      await dispose()
    }
  }, 60_000)
})

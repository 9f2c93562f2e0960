import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { json, startScriptedServer } from '../testing/scripted-server'
import { scriptedCore } from '../testing/scripted-core'

/**
 * The RPC console is read-only: through the bridge, as the renderer (or anything holding the
 * bridge) calls it, a method that signs or sends is refused before the limiter, alone or in a
 * batch. A real server on loopback counts what reaches the service: nothing.
 */
const KEY = 'sk_live_READONLYKEY0123456789abcdefghij'
let service: Awaited<ReturnType<typeof startScriptedServer>>
let app: Awaited<ReturnType<typeof scriptedCore>>

beforeAll(async () => {
  service = await startScriptedServer()
  service.script((req, res) => {
    const body = JSON.parse(req.body) as { id: number } | { id: number }[]
    const reply = (id: number) => ({ jsonrpc: '2.0', id, result: '0x1' })
    json(res, 200, Array.isArray(body) ? body.map((c) => reply(c.id)) : reply(body.id))
  })
})
afterAll(() => service.close())
beforeEach(async () => {
  service.seen.length = 0
  app = await scriptedCore({ serviceUrl: service.url, key: KEY, tuning: { client: { maxAttempts: 1 } } })
})
afterEach(() => app.dispose())

const RAW_TX = `0x02f86b${'ab'.repeat(100)}`

describe('the RPC console sends no writes', () => {
  it.each([
    ['eth_sendRawTransaction', [RAW_TX]],
    ['eth_sendTransaction', [{ from: `0x${'11'.repeat(20)}`, to: `0x${'22'.repeat(20)}`, value: '0x1' }]],
    ['eth_sign', [`0x${'11'.repeat(20)}`, '0xdeadbeef']],
    ['eth_signTypedData_v4', [`0x${'11'.repeat(20)}`, '{}']],
    ['eth_signTransaction', [{}]],
    ['eth_submitWork', ['0x0', '0x0', '0x0']],
    ['eth_sendBundle', [{ txs: [RAW_TX] }]],
    ['eth_SENDRAWTRANSACTION', [RAW_TX]],
    ['personal_sign', ['0xdeadbeef', `0x${'11'.repeat(20)}`]],
    ['wallet_sendCalls', [{}]],
  ])('rpc.call %s is refused with a typed error; nothing reaches the service', async (method, params) => {
    const error = await app.failure('rpc.call', { network: 'alpha', method, params })
    expect(error).toMatchObject({ kind: 'invalid-input', field: 'method' })
    if (method.startsWith('eth_')) expect(error).toMatchObject({ message: expect.stringMatching(/read-only/) })
    expect(service.seen).toEqual([])
    expect((await app.call('limiter.state', {})).usedToday).toBe(0)
  })

  it('a batch with one write among reads is refused whole; nothing reaches the service', async () => {
    const error = await app.failure('rpc.batch', {
      network: 'alpha',
      calls: [
        { method: 'eth_blockNumber', params: [] },
        { method: 'eth_sendRawTransaction', params: [RAW_TX] },
      ],
    })
    expect(error).toMatchObject({
      kind: 'invalid-input',
      field: 'calls.1.method',
      message: expect.stringMatching(/eth_sendRawTransaction .*read-only/),
    })
    expect(service.seen).toEqual([])
    expect((await app.call('limiter.state', {})).usedToday).toBe(0)
  })

  it('reads still go through: one request each', async () => {
    expect(await app.call('rpc.call', { network: 'alpha', method: 'eth_blockNumber', params: [] })).toEqual({
      result: '0x1',
    })
    expect(
      await app.call('rpc.batch', {
        network: 'alpha',
        calls: [
          { method: 'eth_chainId', params: [] },
          { method: 'eth_call', params: [{ to: `0x${'22'.repeat(20)}`, data: '0x' }, 'latest'] },
        ],
      }),
    ).toEqual([
      { ok: true, result: '0x1' },
      { ok: true, result: '0x1' },
    ])
    expect(service.seen).toHaveLength(2)
  })
})

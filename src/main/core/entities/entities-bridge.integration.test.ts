import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { encodeAbiParameters } from 'viem'
import { json, startScriptedServer, type JsonRpcCall } from '../testing/scripted-server'
import { scriptedCore } from '../testing/scripted-core'

/**
 * The entity reads through the bridge, as the renderer calls them, against a real server on
 * loopback playing a provider whose plan includes no traces (Alchemy's free tier: HTTP 403 for
 * debug_traceTransaction, -32601 for trace_transaction): the cost comes first, the refusal is
 * an answer in words (never an error), it is remembered, and the key never shows.
 */
const KEY = 'sk_live_ENTITYKEY0123456789abcdefghijklmn'
const HASH = `0x${'ab'.repeat(32)}`
const OWNER: `0x${string}` = `0x${'0c'.repeat(20)}`
let service: Awaited<ReturnType<typeof startScriptedServer>>
let app: Awaited<ReturnType<typeof scriptedCore>>
const methods = (): string[] => service.seen.map((s) => (JSON.parse(s.body) as JsonRpcCall).method)

beforeAll(async () => {
  service = await startScriptedServer()
  service.script((req, res) => {
    const c = JSON.parse(req.body) as JsonRpcCall
    if (c.method === 'debug_traceTransaction')
      return json(res, 403, {
        jsonrpc: '2.0',
        id: c.id,
        error: {
          code: -32600,
          message: 'debug_traceTransaction is not available on the Free tier - upgrade to Growth',
        },
      })
    if (c.method === 'trace_transaction')
      return json(res, 200, { jsonrpc: '2.0', id: c.id, error: { code: -32601, message: 'Method not found' } })
    if (c.method === 'eth_call')
      return json(res, 200, { jsonrpc: '2.0', id: c.id, result: encodeAbiParameters([{ type: 'address' }], [OWNER]) })
    json(res, 200, { jsonrpc: '2.0', id: c.id, result: '0x6080' })
  })
})
afterAll(() => service.close())
beforeEach(async () => {
  service.seen.length = 0
  app = await scriptedCore({ serviceUrl: service.url, key: KEY, tuning: { client: { maxAttempts: 1 } } })
})
afterEach(() => app.dispose())

describe('entity reads through the bridge', () => {
  it('costs first, then says in words that this provider gives no traces, and does not ask again', async () => {
    expect(await app.call('entities.cost', { network: 'alpha', read: 'trace', id: HASH })).toMatchObject({
      requests: 1,
      upTo: 2,
      billing: 'call-plus-batch',
    })
    expect(service.seen).toEqual([])
    const view = await app.call('entities.internal', { network: 'alpha', hash: HASH.toUpperCase().replace('0X', '0x') })
    expect(view).toMatchObject({ hash: HASH, dialect: null, transfers: [], cost: { requests: 2, units: 2 } })
    expect(view.refused).toContain('not available on the Free tier')
    expect(view.refused).toContain('"Method not found"')
    expect(methods()).toEqual(['debug_traceTransaction', 'trace_transaction'])
    expect(
      await app.call('entities.cost', { network: 'alpha', read: 'trace', id: `0x${'cd'.repeat(32)}` }),
    ).toMatchObject({
      requests: 0,
      upTo: 0,
    })
    const other = await app.call('entities.internal', { network: 'alpha', hash: `0x${'cd'.repeat(32)}` })
    expect([other.refused, other.cost.units]).toEqual([view.refused, 0])
    expect(service.seen).toHaveLength(2)
    expect((await app.call('limiter.state', {})).usedToday).toBe(2)
    // Learnt for the profile on disk (saved in the background), without the key.
    const file = join(app.dir, 'learnt-limits.json')
    const saved = await vi.waitFor(
      () => {
        const text = readFileSync(file, 'utf8')
        expect(text).toContain('not available on the Free tier')
        return text
      },
      { timeout: 20_000, interval: 50 },
    )
    expect(saved).not.toContain(KEY)
  })

  it('reads a contract by a well-known interface and an address kind, each costed as sent', async () => {
    const address = `0x${'22'.repeat(20)}`
    expect(await app.call('entities.functions', { standard: 'Ownable' })).toEqual([
      { signature: 'function owner() view returns (address)', name: 'owner', inputs: [] },
    ])
    const read = await app.call('entities.readContract', {
      network: 'alpha',
      address,
      standard: 'Ownable',
      fn: 'owner',
    })
    expect(read).toMatchObject({ outputs: [{ type: 'address', value: OWNER }], cost: { requests: 1 } })
    const kind = await app.call('entities.address', { network: 'alpha', address })
    expect(kind).toMatchObject({ kind: 'contract', codeSize: 2, from: 'rpc', source: 'network' })
    expect(await app.call('entities.cost', { network: 'alpha', read: 'address', id: address })).toMatchObject({
      requests: 0,
    })
    expect(methods()).toEqual(['eth_call', 'eth_getCode'])
    expect(await app.failure('entities.readContract', { network: 'alpha', address, fn: 'owner' })).toMatchObject({
      kind: 'invalid-input',
      message: expect.stringContaining('give either an ABI or a well-known interface'),
    })
  })
})

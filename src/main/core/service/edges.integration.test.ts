import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { BridgeCallInput, BridgeCallName, BridgeCallOutputs } from '@shared/bridge/contract'
import type { BridgeError } from '@shared/bridge/errors'
import { scriptedCore } from '../testing/scripted-core'
import { json, startScriptedServer } from '../testing/scripted-server'
import { nextPage, transaction } from '../testing/service-fixtures'

/**
 * A service at its edges (deadlines, pauses, origins, hostile answers, redaction) through the bridge, as the renderer calls it, against a
 * hostile service: a real HTTP server on loopback whose answers each test scripts.
 */
const KEY = 'sk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
const ADDR = '0x00000000000000000000000000000000000000aa'
let server: Awaited<ReturnType<typeof startScriptedServer>>
let app: Awaited<ReturnType<typeof scriptedCore>>
let profileId: string

beforeAll(async () => {
  server = await startScriptedServer()
})
afterAll(() => server.close())

beforeEach(async () => {
  server.seen.length = 0
  app = await scriptedCore({
    serviceUrl: server.url,
    key: KEY,
    tuning: { client: { timeoutMs: 2000, backoffMs: 10, maxAttempts: 2 } },
  })
  profileId = app.profileId
})
afterEach(() => app.dispose())

const call = <K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeCallOutputs[K]> =>
  app.call(name, input)
/** The typed error of a call that must fail ('ok' when it succeeded). A call that hangs fails the test by its timeout. */
const failure = <K extends BridgeCallName>(name: K, input: BridgeCallInput<K>) => app.failure(name, input)

const txs = { network: 'alpha', address: ADDR, cursor: null, priority: 'user', refresh: true } as const

/** Follows cursors as "Load all" does, at most `max` pages after the first; the last page and the pages asked for. */
async function walk(
  max: number,
): Promise<{ page: BridgeCallOutputs['data.transactions']; requests: number; count: number }> {
  let page = await call('data.transactions', txs)
  let requests = 1
  let count = page.items.length
  while (page.nextCursor !== null && requests <= max) {
    page = await call('data.transactions', { ...txs, cursor: page.nextCursor })
    requests++
    count += page.items.length
  }
  return { page, requests, count }
}

describe('a service that asks for a pause (item 1)', () => {
  it.each([
    ['seconds', '999999999'],
    ['an HTTP date', new Date(Date.now() + 400 * 86_400_000).toUTCString()],
  ])(
    'a Retry-After of years in %s is shown as a refusal with its time, and pauses the profile 60 s at most',
    async (_what, retryAfter) => {
      server.script((_req, res) =>
        json(res, 429, { error: 'rate_limited', message: 'slow down' }, { 'retry-after': retryAfter }),
      )
      const first = await failure('data.transactions', txs)
      expect(first).toMatchObject({
        kind: 'rate-limited',
        message: expect.stringMatching(/refuses requests for \d+ (min|h)/),
      })
      server.script((_req, res) => json(res, 200, { items: [transaction(1, 99, 1)], next_page_params: null }))
      // The next call answers (a typed refusal naming the pause), it does not hang.
      const second = await failure('data.transactions', {
        ...txs,
        address: '0x00000000000000000000000000000000000000bb',
      })
      expect(second).toMatchObject({ kind: 'rate-limited', retryAfterMs: expect.any(Number) })
      expect((second as BridgeError).retryAfterMs).toBeLessThanOrEqual(60_000)
      const state = await call('limiter.state', {})
      expect(state.pausedUntil && Date.parse(state.pausedUntil) - Date.now()).toBeLessThanOrEqual(60_000)
    },
    8000,
  )
})

describe('paging guards (item 2)', () => {
  it('stops on a repeated cursor instead of spinning', async () => {
    server.script((req, res) =>
      json(res, 200, {
        items: [transaction(1, 99, 1)],
        next_page_params: { ...nextPage(transaction(1, 99, 1)), block_number: 50, index: 0 },
      }),
    )
    const { page, requests } = await walk(10)
    expect(requests).toBe(2)
    expect(page.pagingStopped).toMatch(/already sent/)
  })

  it('stops when the next cursor does not move back in (block, index)', async () => {
    let block = 50
    server.script((_req, res) =>
      json(res, 200, {
        items: [transaction(block, block, 1)],
        next_page_params: { ...nextPage(transaction(block, block, 1)), block_number: (block += 1), index: 0 },
      }),
    )
    const { page, requests } = await walk(10)
    expect(requests).toBe(2)
    expect(page.pagingStopped).toMatch(/does not start further back/)
  })

  it('stops after 3 pages that add nothing, however many fresh cursors the service invents', async () => {
    let n = 1_000_000
    server.script((_req, res) =>
      json(res, 200, {
        items: [],
        next_page_params: { ...nextPage(transaction(1, 99, 1)), block_number: (n -= 1), index: 0 },
      }),
    )
    const { page, requests } = await walk(50)
    expect(requests).toBe(3)
    expect(page.pagingStopped).toMatch(/3 pages in a row/)
    expect(server.seen.length).toBe(3)
  })

  it('follows a normal history to its end', async () => {
    const all = Array.from({ length: 12 }, (_, i) => transaction(i, 1000 - i, i + 1))
    server.script((req, res) => {
      const from = req.query.has('block_number')
        ? all.findIndex((t) => (t.block ?? 0) < Number(req.query.get('block_number')))
        : 0
      const items = all.slice(from, from + 5)
      json(res, 200, { items, next_page_params: from + 5 < all.length ? nextPage(items.at(-1)!) : null })
    })
    const { page, count } = await walk(50)
    expect(count).toBe(12)
    expect(page.pagingStopped).toBeUndefined()
  })
})

describe('a re-pointed profile (item 3)', () => {
  it('forgets the key when either origin changes, and refuses plain http to a remote host', async () => {
    const base = {
      name: 'Hostile',
      networks: [
        { name: 'alpha', label: 'Alpha' },
        { name: 'beta', label: 'Beta' },
      ] as [{ name: string; label: string }, { name: string; label: string }],
    }
    // Same origins, another path: the key stays.
    await call('profiles.save', { ...base, id: profileId, baseUrl: `${server.url}/v2`, rpcUrl: `${server.url}/rpc` })
    expect(await call('key.status', { profileId })).toMatchObject({ set: true })
    const remote = await failure('profiles.save', {
      ...base,
      id: profileId,
      baseUrl: 'http://attacker.example',
      rpcUrl: `${server.url}/rpc`,
    })
    expect(remote).toMatchObject({ kind: 'invalid-input', field: 'baseUrl', message: expect.stringMatching(/https/) })
    expect(await call('key.status', { profileId })).toMatchObject({ set: true })
    await call('profiles.save', {
      ...base,
      id: profileId,
      baseUrl: `${server.url}/v2`,
      rpcUrl: 'https://rpc.attacker.example',
    })
    expect(await call('key.status', { profileId })).toMatchObject({ set: false })
    // Nothing went to the new host with the old key.
    expect(await failure('rpc.call', { network: 'alpha', method: 'eth_blockNumber', params: [] })).toMatchObject({
      kind: 'auth',
    })
  })
})

describe('hostile bodies (items 5, 6)', () => {
  it('a 200,000-deep body is malformed, and the page works again afterwards (item 5)', async () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000)
    server.script((_req, res) => {
      const text = `{"items":[${JSON.stringify(transaction(1, 99, 1)).replace('"actions":[]', `"actions":${deep}`)}],"next_page_params":null}`
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(text)
    })
    expect(await failure('data.transactions', txs)).toMatchObject({
      kind: 'protocol',
      message: expect.stringMatching(/malformed.*nested/),
    })
    server.script((_req, res) => json(res, 200, { items: [transaction(1, 99, 1)], next_page_params: null }))
    expect((await call('data.transactions', txs)).items).toHaveLength(1)
  })

  it('key.test redacts the server text before cutting it (item 6)', async () => {
    server.script((req, res) =>
      json(res, 200, { jsonrpc: '2.0', id: (JSON.parse(req.body) as { id: number }).id, result: `"${KEY}"` }),
    )
    const error = await failure('key.test', { profileId })
    expect(error).toMatchObject({ kind: 'protocol' })
    const message = (error as BridgeError).message
    for (let i = 0; i + 8 <= KEY.length; i++) expect(message).not.toContain(KEY.slice(i, i + 8))
  })
})

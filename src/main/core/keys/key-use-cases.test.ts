import { keyParts } from '../use-case-parts'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SANDBOX_PROFILE_ID } from '@shared/domain/profile'
import { json, startScriptedServer, type JsonRpcCall, type Script } from '../testing/scripted-server'
import { serviceAt, testServices } from '../testing/test-services'
import { systemClock } from '../util/clock'
import { KeyUseCases } from './key-use-cases'

/** The key use cases on the real key store and settings, testing against a scripted RPC endpoint. */
const KEY = 'sk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
let server: Awaited<ReturnType<typeof startScriptedServer>>
let core: ReturnType<typeof testServices>
let keys: KeyUseCases
let id: string

/** Answers every JSON-RPC request with `result`. */
const rpcAnswer =
  (result: unknown): Script =>
  (req, res) =>
    json(res, 200, { jsonrpc: '2.0', id: (JSON.parse(req.body) as JsonRpcCall).id, result })

beforeAll(async () => {
  server = await startScriptedServer()
})
afterAll(() => server.close())
beforeEach(async () => {
  server.seen.length = 0
  core = testServices()
  keys = new KeyUseCases(keyParts(core.services), systemClock)
  id = (await core.services.settings.save(serviceAt(server.url))).profile.id
})
afterEach(() => core.dispose())

describe('KeyUseCases', () => {
  it('sets a session key (shown by its last four characters only) and clears it', async () => {
    expect(await keys.status(id)).toMatchObject({ profileId: id, set: false, storage: 'none' })
    expect(await keys.set(id, KEY, true)).toMatchObject({ set: true, last4: '6789', storage: 'session' })
    expect(JSON.stringify(await keys.status(id))).not.toContain(KEY.slice(0, 12))
    expect(await keys.clear(id)).toMatchObject({ set: false, last4: null })
  })

  it("refuses to set or clear the sandbox's key, and says a running sandbox's key lasts the session", async () => {
    const refusal = { kind: 'invalid-input', details: { field: 'profileId' } }
    await expect(keys.set(SANDBOX_PROFILE_ID, KEY, true)).rejects.toMatchObject(refusal)
    await expect(keys.clear(SANDBOX_PROFILE_ID)).rejects.toMatchObject(refusal)
    expect(await keys.status(SANDBOX_PROFILE_ID)).toMatchObject({ set: false, storage: 'none' })
    const s = core.services
    s.keys.setManaged(s.settings.keyRef(SANDBOX_PROFILE_ID), 'sandbox-run-key-abcd')
    expect(await keys.status(SANDBOX_PROFILE_ID)).toMatchObject({ set: true, storage: 'session', last4: 'abcd' })
  })

  it('names an unknown profile before touching the keychain', async () => {
    for (const run of [() => keys.status('nobody'), () => keys.set('nobody', KEY, true), () => keys.clear('nobody')])
      await expect(run()).rejects.toMatchObject({ kind: 'not-found' })
  })

  it('tests the key with one eth_blockNumber on the first network, and shows the height it told', async () => {
    await keys.set(id, KEY, true)
    await core.services.settings.activate(id)
    core.services.profilesChanged()
    server.script(rpcAnswer('0x2a'))
    const tested = await keys.test(id)
    expect(tested).toEqual({ latencyMs: expect.any(Number), height: '42' })
    expect(server.seen.map((r) => [r.method, r.path])).toEqual([['POST', `/rpc/alpha/${KEY}`]])
    expect(core.services.heightViews().find((h) => h.network === 'alpha')).toMatchObject({ height: '42' })
  })

  it('answers a typed error, without the key, when the answer is not a block number', async () => {
    await keys.set(id, KEY, true)
    server.script(rpcAnswer(`"${KEY}"`))
    const error = await keys.test(id).catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'protocol', message: expect.stringMatching(/^eth_blockNumber answered/) })
    const message = (error as Error).message
    for (let i = 0; i + 8 <= KEY.length; i++) expect(message).not.toContain(KEY.slice(i, i + 8))
  })

  it('without a key, answers an auth error and sends nothing', async () => {
    await expect(keys.test(id)).rejects.toMatchObject({ kind: 'auth' })
    expect(server.seen).toEqual([])
  })
})

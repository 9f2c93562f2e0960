import { activeParts } from '../use-case-parts'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { checksumAddress } from '@shared/domain/address'
import { addr } from '../testing/address'
import { json, startScriptedServer, type JsonRpcCall, type Seen } from '../testing/scripted-server'
import { balanceItem, transaction } from '../testing/service-fixtures'
import { serviceAt, testServices } from '../testing/test-services'
import { ActiveReads } from './active-reads'

/** The active profile's reads on the real runtime, against a scripted service on loopback. */
const KEY = 'active-reads-key-5678'
const ME = addr('0x00000000000000000000000000000000000000aa')
let server: Awaited<ReturnType<typeof startScriptedServer>>
let core: ReturnType<typeof testServices>
let reads: ActiveReads

/** JSON-RPC: a head of 0x2a, one wei and nonce 1 for anyone; the data API: one balance, one transaction. */
function answer(req: Seen, res: Parameters<Parameters<typeof server.script>[0]>[1]): void {
  if (!req.path.startsWith('/rpc/')) {
    const items = req.path.endsWith('transactions') ? [transaction(1, 99, 1)] : [balanceItem()]
    return json(res, 200, { items, next_page_params: null })
  }
  const one = ({ id, method }: JsonRpcCall) => ({
    jsonrpc: '2.0',
    id,
    result: method === 'eth_chainId' ? '0x7a69' : method === 'eth_blockNumber' ? '0x2a' : '0x1',
  })
  const body = JSON.parse(req.body) as JsonRpcCall | JsonRpcCall[]
  json(res, 200, Array.isArray(body) ? body.map(one) : one(body))
}

beforeAll(async () => {
  server = await startScriptedServer()
  server.script(answer)
})
afterAll(() => server.close())
beforeEach(async () => {
  server.seen.length = 0
  core = testServices()
  reads = new ActiveReads(activeParts(core.services))
})
afterEach(() => core.dispose())

/** A service profile at the scripted server, active, with a session key. */
async function activate(): Promise<string> {
  const s = core.services
  const { profile } = await s.settings.save(serviceAt(server.url))
  await s.settings.activate(profile.id)
  s.profilesChanged()
  await s.keys.set(s.settings.keyRef(profile.id), KEY, true)
  return profile.id
}

describe('ActiveReads', () => {
  it('answers nothing, and asks nothing, while no profile is active', async () => {
    await expect(
      reads.balances({ network: 'alpha', address: ME, priority: 'user', refresh: false, cacheOnly: false }),
    ).rejects.toMatchObject({ kind: 'not-found' })
    await expect(reads.presence(ME, { refresh: false })).rejects.toMatchObject({ kind: 'not-found' })
    expect(server.seen).toEqual([])
  })

  it("reads the active profile's balances and transactions, showing the address checksummed", async () => {
    await activate()
    const balances = await reads.balances({
      network: 'alpha',
      address: ME,
      priority: 'user',
      refresh: false,
      cacheOnly: false,
    })
    expect(balances).toMatchObject({ network: 'alpha', address: checksumAddress(ME), source: 'network' })
    expect(balances.items).toHaveLength(1)
    const page = await reads.transactions({
      network: 'beta',
      address: ME,
      cursor: null,
      priority: 'user',
      refresh: false,
      cacheOnly: false,
    })
    expect(page).toMatchObject({ network: 'beta', address: checksumAddress(ME), nextCursor: null })
    expect(page.items).toHaveLength(1)
    expect(server.seen.map((r) => r.query.get('address'))).toEqual([ME, ME])
  })

  it('refuses a network the profile does not have before any request', async () => {
    await activate()
    const other = { kind: 'invalid-input', details: { field: 'network' } }
    await expect(
      reads.balances({ network: 'gamma', address: ME, priority: 'user', refresh: false, cacheOnly: false }),
    ).rejects.toMatchObject(other)
    await expect(reads.rpc('gamma', 'eth_blockNumber', [])).rejects.toMatchObject(other)
    await expect(reads.rpcBatch('gamma', [{ method: 'eth_chainId', params: [] }])).rejects.toMatchObject(other)
    expect(server.seen).toEqual([])
  })

  it("takes a console call's block number as the network's head; other methods' answers are not heads", async () => {
    await activate()
    expect(await reads.rpc('alpha', 'eth_chainId', [])).toEqual({ result: '0x7a69' })
    expect(core.services.heightViews().find((h) => h.network === 'alpha')).toMatchObject({ height: null })
    expect(await reads.rpc('alpha', 'eth_blockNumber', [])).toEqual({ result: '0x2a' })
    expect(core.services.heightViews().find((h) => h.network === 'alpha')).toMatchObject({ height: '42' })
    expect(server.seen.map((r) => r.path)).toEqual([`/rpc/alpha/${KEY}`, `/rpc/alpha/${KEY}`])
  })

  it('sends a console batch as one request and answers item by item', async () => {
    await activate()
    const items = await reads.rpcBatch('beta', [
      { method: 'eth_chainId', params: [] },
      { method: 'eth_getBalance', params: [ME, 'latest'] },
    ])
    expect(items).toEqual([
      { ok: true, result: '0x7a69' },
      { ok: true, result: '0x1' },
    ])
    expect(server.seen).toHaveLength(1)
  })

  it('tells, per network of the active profile, whether the address holds and sent anything', async () => {
    await activate()
    const presence = await reads.presence(ME, { refresh: false })
    expect(presence.map((p) => [p.network, p.nativeWei, p.nonce, p.source])).toEqual([
      ['alpha', '1', 1, 'network'],
      ['beta', '1', 1, 'network'],
    ])
  })

  it('answers the approvals of an address from what is loaded, and has no scan of it to stop', async () => {
    await activate()
    const view = await reads.approvals('alpha', ME)
    expect(view).toMatchObject({ network: 'alpha', rows: [], transactionsRead: 0 })
    expect(reads.stopApprovalScan('alpha', ME)).toEqual({ stopped: false })
    await expect(reads.approvals('gamma', ME)).rejects.toMatchObject({ kind: 'invalid-input' })
  })
})

import { beforeEach, describe, expect, it } from 'vitest'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { setupTestApp, type TestApp } from '../../testing/mount'
import { useRpcConsoleStore } from './rpc-console-store'
import { sandboxProfile } from '../../testing/samples'
import { useSessionStore } from '../../platform/session-store'

describe('rpc console store', () => {
  let t: TestApp
  beforeEach(() => {
    localStorage.clear()
    t = setupTestApp()
    useSessionStore().profiles = [sandboxProfile(true, true)]
  })

  it('sends a form call, keeps the result and a persisted history', async () => {
    t.bridge.handle('rpc.call', () => ({ result: '0x10' }))
    const s = useRpcConsoleStore()
    s.pick('eth_getBalance')
    s.formValues = { address: '0x52908400098527886e0f7030069857d2e4169ee7', block: '100' }
    expect(await s.send('alpha')).toBe(true)
    expect(t.bridge.callsOf('rpc.call')).toEqual([
      { network: 'alpha', method: 'eth_getBalance', params: ['0x52908400098527886E0F7030069857D2E4169EE7', '0x64'] },
    ])
    expect(s.result).toMatchObject({ method: 'eth_getBalance', value: '0x10' })
    expect(s.history[0]).toMatchObject({ method: 'eth_getBalance', ok: true, summary: '"0x10"' })
    expect(JSON.parse(localStorage.getItem('chainscope.rpc-history.v1')!)).toHaveLength(1)
  })

  it('blocks invalid input before any request', async () => {
    const s = useRpcConsoleStore()
    s.pick('eth_getTransactionByHash')
    s.formValues = { hash: '0x12' }
    expect(await s.send('alpha')).toBe(false)
    expect(s.fieldErrors.hash).toMatch(/64 hex characters/)
    s.mode = 'raw'
    s.rawText = '{"method": 1}'
    expect(await s.send('alpha')).toBe(false)
    expect(s.fieldErrors.raw).toMatch(/standard eth_/)
    expect(t.bridge.calls).toHaveLength(0)
  })

  it('shows RPC errors and records them', async () => {
    t.bridge.handle('rpc.call', () => {
      throw new FakeBridgeFailure({ kind: 'rpc', message: 'execution reverted', code: 3 })
    })
    const s = useRpcConsoleStore()
    s.mode = 'raw'
    s.rawText = '{"method":"eth_call","params":[{"to":"0x52908400098527886e0f7030069857d2e4169ee7"},"latest"]}'
    expect(await s.send('beta')).toBe(false)
    expect(s.error).toMatchObject({ kind: 'rpc', code: 3 })
    expect(s.history[0]).toMatchObject({ ok: false, summary: 'execution reverted', network: 'beta' })
    s.reuse(s.history[0]!)
    expect(JSON.parse(s.rawText)).toMatchObject({ method: 'eth_call' })
  })

  it('keeps history per profile, each call with its network label as it was then', async () => {
    t.bridge.handle('rpc.call', () => ({ result: '0x1' }))
    const session = useSessionStore()
    const other = {
      ...sandboxProfile(false, true),
      id: 'desk-2',
      name: 'Second desk',
      kind: 'service' as const,
      networks: [
        { name: 'alpha', label: 'Main' },
        { name: 'beta', label: 'Side' },
      ],
    }
    session.profiles = [sandboxProfile(true, true), other]
    const s = useRpcConsoleStore()
    await s.send('alpha')
    expect(s.history.map((h) => [h.profileId, h.networkLabel])).toEqual([['sandbox', 'Alpha']])
    session.profiles = [sandboxProfile(false, true), { ...other, active: true }]
    expect(s.history).toEqual([])
    await s.send('alpha')
    expect(s.history.map((h) => [h.profileId, h.networkLabel])).toEqual([['desk-2', 'Main']])
    s.clearHistory()
    expect(s.history).toEqual([])
    session.profiles = [sandboxProfile(true, true), other]
    expect(s.history.map((h) => h.networkLabel)).toEqual(['Alpha'])
  })

  it('keeps calls recorded before history was per profile readable, apart', async () => {
    const old = {
      id: 'a1',
      at: 1,
      network: 'alpha',
      method: 'eth_blockNumber',
      params: [],
      ok: true,
      ms: 5,
      summary: '"0x5"',
    }
    localStorage.setItem('chainscope.rpc-history.v1', JSON.stringify([old]))
    t.bridge.handle('rpc.call', () => ({ result: '0x6' }))
    const s = useRpcConsoleStore()
    expect(s.history).toEqual([])
    expect(s.earlier).toEqual([{ ...old, profileId: null, networkLabel: null }])
    await s.send('alpha')
    // Both stay in the one stored list, the old entry untouched for an older build to read.
    const stored = JSON.parse(localStorage.getItem('chainscope.rpc-history.v1')!) as { id: string }[]
    expect(stored.map((e) => e.id)).toEqual([s.history[0]!.id, 'a1'])
    s.clearHistory()
    expect(s.earlier).toHaveLength(1)
    s.clearEarlier()
    expect(s.earlier).toEqual([])
  })

  it('ignores a corrupt stored history', () => {
    localStorage.setItem('chainscope.rpc-history.v1', '{broken')
    expect(useRpcConsoleStore().history).toEqual([])
  })
})

describe('rpc console modes', () => {
  it('carries the form into raw JSON and follows the method named there', async () => {
    const t = setupTestApp()
    t.bridge.handle('rpc.call', () => ({ result: '0x1' }))
    const s = useRpcConsoleStore()
    s.pick('eth_getBlockByNumber')
    s.formValues = { block: '16' }
    s.mode = 'raw'
    await Promise.resolve()
    expect(JSON.parse(s.rawText)).toEqual({ method: 'eth_getBlockByNumber', params: ['0x10', false] })
    s.rawText = '{"method":"eth_chainId","params":[]}'
    await s.send('alpha')
    expect(s.method).toBe('eth_chainId')
  })
})

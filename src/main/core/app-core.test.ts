import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { BridgeCallInput, BridgeCallName, BridgeCallOutputs, BridgeEventName } from '@shared/bridge/contract'
import { createCore, type Core, type CoreOptions } from './app-core'
import { testCoreOptions } from './testing/core-options'

/** The composition root through the bridge: profiles, settings, notices, watchlists, lifecycle. */
let dir: string
const cores: Core[] = []
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'app-core-'))
})
afterEach(async () => {
  for (const c of cores.splice(0)) await c.dispose()
  rmSync(dir, { recursive: true, force: true })
})

async function open(extra: Partial<CoreOptions> = {}): Promise<{
  core: Core
  events: { event: BridgeEventName; payload: unknown }[]
  call: <K extends BridgeCallName>(n: K, i: BridgeCallInput<K>) => Promise<BridgeCallOutputs[K]>
}> {
  const core = await createCore(
    testCoreOptions(dir, {
      version: '1.2.3',
      platform: 'linux',
      keychain: () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')),
      ...extra,
    }),
  )
  cores.push(core)
  const events: { event: BridgeEventName; payload: unknown }[] = []
  core.bridge.subscribe((event, payload) => events.push({ event, payload }))
  const call = async <K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeCallOutputs[K]> => {
    const r = await core.bridge.dispatch(name, input)
    if (!r.ok) throw Object.assign(new Error(r.error.message), r.error)
    return r.value as BridgeCallOutputs[K]
  }
  return { core, events, call }
}

const service = {
  name: 'My node',
  baseUrl: 'https://data.example/',
  rpcUrl: 'https://rpc.example',
  networks: [
    { name: 'main', label: 'Main' },
    { name: 'test', label: 'Test' },
  ] as [{ name: string; label: string }, { name: string; label: string }],
}

describe('createCore', () => {
  it('answers app.info and starts with only the sandbox profile, none active', async () => {
    const { call } = await open()
    expect(await call('app.info', {})).toEqual({ name: 'Chainscope', version: '1.2.3', host: 'web', platform: 'linux' })
    expect(await call('profiles.list', {})).toEqual([
      {
        id: 'sandbox',
        name: 'Sandbox',
        kind: 'sandbox',
        baseUrl: '',
        rpcUrl: '',
        networks: [],
        limits: { ratePerSecond: 50, burst: 5, quotaPerDay: 1000, scope: 'key' },
        billing: 'request',
        active: false,
      },
    ])
    await expect(
      call('data.balances', { network: 'main', address: '0x52908400098527886e0f7030069857d2e4169ee7' }),
    ).rejects.toMatchObject({ kind: 'not-found', message: expect.stringMatching(/No profile is active/) })
    expect(await call('limiter.state', {})).toMatchObject({ profileId: 'sandbox', usedToday: 0, leftToday: 1000 })
    expect(await call('height.get', {})).toEqual([])
  })

  it('saves, edits, activates and removes service profiles, telling the renderer each time', async () => {
    const { call, events } = await open()
    const saved = await call('profiles.save', service)
    expect(saved).toMatchObject({
      id: expect.stringMatching(/^my-node-[0-9a-f]{4}$/),
      kind: 'service',
      baseUrl: 'https://data.example',
      active: false,
      limits: { quotaPerDay: 1000 },
    })
    await call('profiles.activate', { id: saved.id })
    await call('profiles.setLimits', { id: saved.id, limits: { ratePerSecond: 10, burst: 2, quotaPerDay: 500 } })
    expect(await call('limiter.state', {})).toMatchObject({
      profileId: saved.id,
      ratePerSecond: 10,
      burst: 2,
      quotaPerDay: 500,
      reserve: 100,
    })
    expect((await call('height.get', {})).map((h) => h.network)).toEqual(['main', 'test'])
    await expect(
      call('data.balances', { network: 'other', address: '0x52908400098527886e0f7030069857d2e4169ee7' }),
    ).rejects.toMatchObject({ kind: 'invalid-input', field: 'network' })
    // No key yet: a typed auth error, not a request.
    await expect(call('rpc.call', { network: 'main', method: 'eth_blockNumber' })).rejects.toMatchObject({
      kind: 'auth',
    })
    expect(events.filter((e) => e.event === 'profiles.changed').length).toBeGreaterThanOrEqual(3)

    // Everything survives a restart.
    await cores.pop()!.dispose()
    const again = await open()
    const list = await again.call('profiles.list', {})
    expect(list.find((p) => p.id === saved.id)).toMatchObject({ active: true, limits: { quotaPerDay: 500 } })
    await again.call('profiles.remove', { id: saved.id })
    expect((await again.call('profiles.list', {})).map((p) => p.id)).toEqual(['sandbox'])
    await expect(again.call('profiles.remove', { id: 'sandbox' })).rejects.toMatchObject({ kind: 'invalid-input' })
    await expect(again.call('profiles.save', { ...service, id: 'sandbox' })).rejects.toMatchObject({
      kind: 'invalid-input',
    })
  })

  it('explains an unusable keychain and keeps a session-only key in memory only', async () => {
    const { call } = await open()
    const { id } = await call('profiles.save', service)
    const status = await call('key.status', { profileId: id })
    expect(status).toMatchObject({
      set: false,
      keychainAvailable: false,
      keychainProblem: expect.stringMatching(/Secret Service/),
    })
    await expect(call('key.set', { profileId: id, key: 'my-secret-key-9876' })).rejects.toMatchObject({
      kind: 'keychain',
    })
    expect(await call('key.set', { profileId: id, key: 'my-secret-key-9876', sessionOnly: true })).toMatchObject({
      set: true,
      storage: 'session',
      last4: '9876',
    })
    await cores.pop()!.dispose()
    const again = await open()
    expect(await again.call('key.status', { profileId: id })).toMatchObject({ set: false })
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).not.toContain('my-secret-key')
  })

  it('says the sandbox is unavailable when the host gave no launcher', async () => {
    const { call } = await open()
    await call('profiles.activate', { id: 'sandbox' })
    await expect(call('rpc.call', { network: 'alpha', method: 'eth_blockNumber' })).rejects.toMatchObject({
      kind: 'offline',
      message: expect.stringMatching(/not available in this build/),
    })
  })

  it('keeps settings and tells the user about a restored watchlists file', async () => {
    const { call } = await open()
    expect(await call('settings.get', {})).toEqual({ allowRemoteIcons: false })
    expect(await call('settings.set', { allowRemoteIcons: true })).toEqual({ allowRemoteIcons: true })
    const list = await call('watchlists.create', { name: 'Desk' })
    await call('watchlists.addEntry', {
      listId: list.id,
      entry: { address: '0x52908400098527886E0F7030069857D2E4169EE7', network: 'main', label: 'T' },
    })
    await call('watchlists.rename', { id: list.id, name: 'Desk 2' })
    await cores.pop()!.dispose()
    writeFileSync(join(dir, 'watchlists.json'), '{"version":2,"lists":[')
    const again = await open()
    expect(await again.call('settings.get', {})).toEqual({ allowRemoteIcons: true })
    const notices = await again.call('app.notices', {})
    expect(notices).toEqual([
      expect.objectContaining({ level: 'warning', message: expect.stringMatching(/restored from its backup/) }),
    ])
    // The backup is the state before the last change.
    expect((await again.call('watchlists.list', {})).map((l) => l.name)).toEqual(['Desk'])
    const exported = await again.call('watchlists.export', { format: 'csv' })
    expect(exported.text).toContain('0x52908400098527886E0F7030069857D2E4169EE7')
  })

  it('validates the checksum of watchlist addresses', async () => {
    const { call } = await open()
    const list = await call('watchlists.create', { name: 'L' })
    await expect(
      call('watchlists.addEntry', {
        listId: list.id,
        entry: { address: '0x52908400098527886E0F7030069857D2E4169Ee7', network: 'main' },
      }),
    ).rejects.toMatchObject({ kind: 'invalid-input', field: 'entry.address' })
  })
})

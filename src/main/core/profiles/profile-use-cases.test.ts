import { profileParts } from '../use-case-parts'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ProfileView } from '@shared/bridge/contract'
import { SANDBOX_PROFILE_ID } from '@shared/domain/profile'
import type { KeychainBackend } from '../keys/key-store'
import { addr } from '../testing/address'
import { json, startScriptedServer } from '../testing/scripted-server'
import { balanceItem } from '../testing/service-fixtures'
import { serviceAt, testServices } from '../testing/test-services'
import { ProfileUseCases } from './profile-use-cases'

/** The profile use cases on the real stores, runtimes and a scripted service on loopback. */
const KEY = 'profile-use-case-key-1234'
const ME = addr('0x00000000000000000000000000000000000000aa')
let server: Awaited<ReturnType<typeof startScriptedServer>>
let core: ReturnType<typeof testServices>
let profiles: ProfileUseCases

beforeAll(async () => {
  server = await startScriptedServer()
  server.script((_req, res) => json(res, 200, { items: [balanceItem()], next_page_params: null }))
})
afterAll(() => server.close())
beforeEach(() => {
  server.seen.length = 0
  core = testServices()
  profiles = new ProfileUseCases(profileParts(core.services))
})
afterEach(() => core.dispose())

const changed = (): ProfileView[][] =>
  core.events.filter((e) => e.event === 'profiles.changed').map((e) => e.payload as ProfileView[])

/** learnt-limits.json's profiles, as saved. */
const savedLearnt = async (): Promise<Record<string, Record<string, { logCap?: { blocks: number } }>>> => {
  await core.services.settled()
  return (
    JSON.parse(readFileSync(join(core.dir, 'learnt-limits.json'), 'utf8')) as {
      profiles: Record<string, Record<string, { logCap?: { blocks: number } }>>
    }
  ).profiles
}

/** The profile ids the renderer was last told of. */
const lastListed = (): string[] => (changed().at(-1) ?? []).map((p) => p.id)

/** A saved, active service profile with a session key, which has read the balances of ME once. */
async function used(): Promise<string> {
  const s = core.services
  const { id } = await profiles.save(serviceAt(server.url))
  await profiles.activate(id)
  await s.keys.set(s.settings.keyRef(id), KEY, true)
  await s.runtimes.get(id).data.balances({ network: 'alpha', address: ME, priority: 'user', refresh: false })
  await s.snapshots.flush()
  return id
}

describe('ProfileUseCases', () => {
  it('removes a profile with everything that held a part of it: runtime, learnt limits, quota count, snapshots, key', async () => {
    const s = core.services
    const id = await used()
    s.quota.save(id, { day: '2030-01-01', used: 7, keyTag: 'abc' })
    s.runtimes.get(id).client.logs.noteCap('alpha', 500)
    expect(await savedLearnt()).toHaveProperty(id)
    const folder = join(core.dir, 'snapshots', id)
    expect(existsSync(folder)).toBe(true)
    const ref = s.settings.keyRef(id)

    expect(await profiles.remove(id)).toBeNull()

    expect(s.settings.find(id)).toBeUndefined()
    expect(s.settings.activeProfileId).toBeNull()
    expect(s.quota.load(id)).toBeNull()
    expect(existsSync(folder)).toBe(false)
    expect(await s.keys.status(ref)).toMatchObject({ set: false })
    expect(() => s.runtimes.get(id)).toThrow(expect.objectContaining({ kind: 'not-found' }))
    expect(await savedLearnt()).not.toHaveProperty(id)
    expect(lastListed()).toEqual([SANDBOX_PROFILE_ID])
  })

  it('refuses the sandbox and an unknown id, changing nothing', async () => {
    await expect(profiles.remove(SANDBOX_PROFILE_ID)).rejects.toMatchObject({ kind: 'invalid-input' })
    await expect(profiles.remove('nobody')).rejects.toMatchObject({ kind: 'not-found' })
    expect(core.services.settings.list().map((p) => p.id)).toEqual([SANDBOX_PROFILE_ID])
    expect(changed()).toEqual([])
  })

  it('removes the profile even when the keychain refuses to forget its key, and says so', async () => {
    // Fault injection: a keychain that keeps keys but cannot delete one (a locked collection).
    const kept = new Map<string, string>()
    const keychain: KeychainBackend = {
      getPassword: async (_service, account) => kept.get(account) ?? null,
      setPassword: async (_service, account, password) => void kept.set(account, password),
      deletePassword: async () => {
        throw new Error('the collection is locked')
      },
    }
    await core.dispose()
    core = testServices({ keychain: async () => keychain })
    profiles = new ProfileUseCases(profileParts(core.services))
    const { id } = await profiles.save(serviceAt(server.url))
    await expect(profiles.remove(id)).rejects.toMatchObject({ kind: 'keychain', message: /locked/ })
    expect(core.services.settings.find(id)).toBeUndefined()
    expect(lastListed()).toEqual([SANDBOX_PROFILE_ID])
  })

  it('saving a new address forgets cached answers; a new origin forgets the key too', async () => {
    const s = core.services
    const id = await used()
    const read = () =>
      s.runtimes.get(id).data.balances({ network: 'alpha', address: ME, priority: 'user', refresh: false })
    // Without the saved copy, only the memory cache can answer without a request.
    await s.snapshots.removeProfile(id)
    expect((await read()).source).toBe('cache')
    expect(server.seen).toHaveLength(1)

    // The same origin, another path: the answers cached for the old one are not served.
    const moved = await profiles.save({ ...serviceAt(`${server.url}/v2`), id })
    expect(moved).toMatchObject({ id, baseUrl: `${server.url}/v2`, active: true })
    expect((await read()).source).toBe('network')
    expect(server.seen.map((r) => r.path.startsWith('/v2/'))).toEqual([false, true])
    expect(await s.keys.status(s.settings.keyRef(id))).toMatchObject({ set: true })

    // Another host: the key was given for the old one and is not sent there.
    await profiles.save({ ...serviceAt(server.url.replace('127.0.0.1', 'localhost')), id })
    expect(await s.keys.status(s.settings.keyRef(id))).toMatchObject({ set: false })
  })

  it('saving a new address drops the saved answers of the old one too, so none is served as fresh or offline', async () => {
    const s = core.services
    const id = await used()
    const folder = join(core.dir, 'snapshots', id)
    expect(existsSync(folder)).toBe(true)

    await profiles.save({ ...serviceAt(`${server.url}/v2`), id })

    expect(existsSync(folder)).toBe(false)
    const again = await s.runtimes
      .get(id)
      .data.balances({ network: 'alpha', address: ME, priority: 'user', refresh: false })
    expect(again.source).toBe('network')
    expect(server.seen.map((r) => r.path.startsWith('/v2/'))).toEqual([false, true])
  })

  it('a new RPC address forgets the limits learnt from the old one, in this run and in what is saved', async () => {
    const s = core.services
    const id = await used()
    s.runtimes.get(id).client.logs.noteCap('alpha', 500)
    expect(s.runtimes.get(id).client.logs.learntCap('alpha')).toBe(500)
    const old = s.runtimes.get(id)

    await profiles.save({ ...serviceAt(server.url), rpcUrl: `${server.url}/rpc-2`, id })
    // The old runtime, ended, may still finish a request: what it learns is not kept for the new address.
    old.client.logs.noteCap('alpha', 300)
    expect(s.runtimes.get(id).client.logs.learntCap('alpha')).toBeNull()
    expect(s.runtimes.get(id).client.logs.learntCap('alpha')).toBeNull()
    expect(await savedLearnt()).not.toHaveProperty(id)
    // What the new address teaches is saved as its own, not on top of the old one's.
    s.runtimes.get(id).client.logs.noteCap('alpha', 800)
    expect((await savedLearnt())[id]?.['alpha']?.logCap?.blocks).toBe(800)
  })

  it('activates a profile and applies new limits to its running limiter at once', async () => {
    const { id } = await profiles.save(serviceAt(server.url))
    expect(await profiles.activate(id)).toMatchObject({ id, active: true })
    const view = await profiles.setLimits(id, { ratePerSecond: 10, burst: 2, quotaPerDay: 500, scope: 'key' }, 'call')
    expect(view).toMatchObject({ id, billing: 'call', limits: { quotaPerDay: 500 } })
    expect(core.services.limiterState()).toMatchObject({ profileId: id, ratePerSecond: 10, burst: 2, quotaPerDay: 500 })
    expect(
      changed()
        .at(-1)!
        .find((p) => p.id === id),
    ).toMatchObject({ active: true, limits: { burst: 2 } })
    await expect(profiles.activate('nobody')).rejects.toMatchObject({ kind: 'not-found' })
  })
})

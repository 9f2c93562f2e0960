import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BridgeCallInput, BridgeCallName, BridgeCallOutputs } from '@shared/bridge/contract'
import type { BridgeError } from '@shared/bridge/errors'
import { createCore, type Core } from '../app-core'
import { json, startScriptedServer } from '../testing/scripted-server'
import { testCoreOptions } from '../testing/core-options'
import { loadKeytar } from './key-store'

/**
 * Keychain entries belong to one data folder's profile, whatever id a caller gives it: two
 * folders, one profile id, the real keychain (run under scripts/with-keyring.sh) and a real
 * HTTP service that records everything it is sent.
 */
const SERVICE = `ChainscopeFolders-${randomBytes(4).toString('hex')}`
const dirs: string[] = []
const cores: Core[] = []
let server: Awaited<ReturnType<typeof startScriptedServer>>

beforeAll(async () => {
  server = await startScriptedServer()
  // Any JSON-RPC call: block 16.
  server.script((req, res) =>
    json(res, 200, { jsonrpc: '2.0', id: JSON.parse(req.body || '{}').id ?? 1, result: '0x10' }),
  )
})
afterAll(async () => {
  for (const core of cores) await core.dispose()
  const keytar = (await loadKeytar()) as Awaited<ReturnType<typeof loadKeytar>> & {
    findCredentials(service: string): Promise<{ account: string }[]>
  }
  for (const { account } of await keytar.findCredentials(SERVICE)) await keytar.deletePassword(SERVICE, account)
  await server.close()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'key-folder-'))
  dirs.push(d)
  return d
}

interface Bridge {
  call<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeCallOutputs[K]>
  failure<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeError>
}

async function open(dataDir: string): Promise<Bridge> {
  // The real keychain (the default), under a service name of this test's own.
  const core = await createCore(testCoreOptions(dataDir, { keychain: undefined, keychainService: SERVICE }))
  cores.push(core)
  return {
    async call(name, input) {
      const r = await core.bridge.dispatch(name, input)
      if (!r.ok) throw new Error(`${name} failed: ${r.error.kind}: ${r.error.message}`)
      return r.value as never
    },
    async failure(name, input) {
      const r = await core.bridge.dispatch(name, input)
      if (r.ok) throw new Error(`${name} succeeded but should have failed`)
      return r.error
    },
  }
}

const profile = (id: string) => ({
  id,
  name: 'Shared id',
  baseUrl: server.url,
  rpcUrl: `${server.url}/rpc`,
  networks: [
    { name: 'one', label: 'One' },
    { name: 'two', label: 'Two' },
  ] as [{ name: string; label: string }, { name: string; label: string }],
})

/** Every byte the service was sent (paths, queries, bodies). */
const sentToService = (): string => server.seen.map((s) => `${s.path}?${s.query.toString()} ${s.body}`).join('\n')

describe('keychain entries per data folder', () => {
  it('runs under a real Secret Service (scripts/with-keyring.sh)', () => {
    expect(process.env.CHAINSCOPE_KEYRING, 'run through scripts/with-keyring.sh').toBe('ready')
  })

  it('the same profile id in two folders: separate keys, key.test never sends the other folder’s, clearing one keeps the other', async () => {
    const keyA = `folder-a-key-${randomBytes(6).toString('hex')}-AAAA`
    const keyB = `folder-b-key-${randomBytes(6).toString('hex')}-BBBB`
    const a = await open(folder())
    const bDir = folder()
    const b = await open(bDir)
    await a.call('profiles.save', profile('shared'))
    await a.call('key.set', { profileId: 'shared', key: keyA })
    // Folder B saves a profile with the id it chooses: A's id.
    await b.call('profiles.save', profile('shared'))
    expect(await b.call('key.status', { profileId: 'shared' })).toMatchObject({ set: false, last4: null })
    expect(await b.failure('key.test', { profileId: 'shared' })).toMatchObject({ kind: 'auth' })
    expect(sentToService()).not.toContain(keyA)

    await b.call('key.set', { profileId: 'shared', key: keyB })
    expect(await b.call('key.test', { profileId: 'shared' })).toMatchObject({ height: '16' })
    expect(sentToService()).toContain(keyB)
    expect(sentToService()).not.toContain(keyA)

    // Clearing A's key leaves B's, also for a new process on folder B.
    expect(await a.call('key.clear', { profileId: 'shared' })).toMatchObject({ set: false })
    expect(await (await open(bDir)).call('key.status', { profileId: 'shared' })).toMatchObject({
      set: true,
      last4: 'BBBB',
    })
    // Removing and re-creating the id in A gets no key back, from the keychain or from memory.
    await a.call('profiles.remove', { id: 'shared' })
    await a.call('profiles.save', profile('shared'))
    expect(await a.call('key.status', { profileId: 'shared' })).toMatchObject({ set: false })
  })

  it('a key an earlier version stored under the profile id is moved to the folder’s own entry, once', async () => {
    const keytar = await loadKeytar()
    const old = `old-version-key-${randomBytes(6).toString('hex')}-OLD1`
    await keytar.setPassword(SERVICE, 'legacy-1', old)
    const dir = folder()
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({
        version: 1,
        activeProfileId: 'legacy-1',
        // As an earlier version wrote it: no keyId, the key under the profile id.
        profiles: [{ ...profile('legacy-1'), limits: { ratePerSecond: 50, burst: 5, quotaPerDay: 1000 } }],
        sandbox: { limits: null, networks: [] },
        balanceSpelling: {},
        settings: { allowRemoteIcons: false },
      }),
    )
    const c = await open(dir)
    expect(await c.call('key.status', { profileId: 'legacy-1' })).toMatchObject({ set: true, last4: 'OLD1' })
    expect(await c.call('key.test', { profileId: 'legacy-1' })).toMatchObject({ height: '16' })
    expect(sentToService()).toContain(old)
    // The settings no longer point at the old entry; a new process finds the key in the new one.
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).not.toContain('legacyKey')
    await keytar.deletePassword(SERVICE, 'legacy-1')
    expect(await (await open(dir)).call('key.status', { profileId: 'legacy-1' })).toMatchObject({
      set: true,
      last4: 'OLD1',
    })
  })

  it('a profile made now with an old entry’s id does not read that entry', async () => {
    const keytar = await loadKeytar()
    const old = `someone-elses-key-${randomBytes(6).toString('hex')}-ELSE`
    await keytar.setPassword(SERVICE, 'legacy-2', old)
    const d = await open(folder())
    await d.call('profiles.save', profile('legacy-2'))
    expect(await d.call('key.status', { profileId: 'legacy-2' })).toMatchObject({ set: false })
    expect(await d.failure('key.test', { profileId: 'legacy-2' })).toMatchObject({ kind: 'auth' })
    expect(sentToService()).not.toContain(old)
    // And clearing this profile's key leaves the old entry alone.
    await d.call('key.clear', { profileId: 'legacy-2' })
    expect(await keytar.getPassword(SERVICE, 'legacy-2')).toBe(old)
  })
})

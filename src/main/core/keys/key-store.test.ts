import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { Redactor } from '../util/logger'
import { KeyStore, loadKeytar, type KeychainBackend, type KeyRef } from './key-store'

/**
 * These run against the real Secret Service (gnome-keyring) that scripts/with-keyring.sh
 * starts: `bash scripts/with-keyring.sh npx vitest run src/main/core/keys` (npm test does).
 */
const SERVICE = `ChainscopeTest-${randomBytes(4).toString('hex')}`
const stores: { store: KeyStore; profiles: string[] }[] = []
afterEach(async () => {
  for (const { store, profiles } of stores.splice(0))
    for (const p of profiles) await store.clear(ref(p)).catch(() => {})
})

/** An entry named plainly (SettingsStore.keyRef names the app's; see key-ref.test.ts). */
const ref = (account: string): KeyRef => ({ profileId: account, account })

function realStore(profiles: string[]): { store: KeyStore; redactor: Redactor } {
  const redactor = new Redactor()
  const store = new KeyStore({ service: SERVICE, redactor })
  stores.push({ store, profiles })
  return { store, redactor }
}

describe('KeyStore on the real keychain', () => {
  it('runs under a real Secret Service (scripts/with-keyring.sh)', async () => {
    expect(
      process.env.CHAINSCOPE_KEYRING,
      'run through scripts/with-keyring.sh so a real gnome-keyring is present',
    ).toBe('ready')
    const { store } = realStore(['p-probe'])
    const status = await store.status(ref('p-probe'))
    expect(status).toMatchObject({
      keychainAvailable: true,
      keychainProblem: null,
      set: false,
      storage: 'none',
      last4: null,
    })
  })

  it('sets, replaces and clears a key in the keychain, showing only the last four characters', async () => {
    const { store, redactor } = realStore(['p1'])
    const first = await store.set(ref('p1'), 'first-key-ABCD', false)
    expect(first).toEqual({
      profileId: 'p1',
      set: true,
      last4: 'ABCD',
      storage: 'keychain',
      keychainAvailable: true,
      keychainProblem: null,
    })
    expect(JSON.stringify(first)).not.toContain('first-key')
    const keytar = await loadKeytar()
    expect(await keytar.getPassword(SERVICE, 'p1')).toBe('first-key-ABCD')

    await store.set(ref('p1'), 'second-key-WXYZ', false)
    expect(await keytar.getPassword(SERVICE, 'p1')).toBe('second-key-WXYZ')
    expect(redactor.redact('url?api_key=second-key-WXYZ')).toBe('url?api_key=…WXYZ')

    // A new process (a fresh store) finds the key in the keychain.
    const { store: fresh } = realStore([])
    expect(await fresh.get(ref('p1'))).toBe('second-key-WXYZ')
    expect((await fresh.status(ref('p1'))).last4).toBe('WXYZ')

    const cleared = await store.clear(ref('p1'))
    expect(cleared).toMatchObject({ set: false, last4: null, storage: 'none' })
    expect(await keytar.getPassword(SERVICE, 'p1')).toBeNull()
  })

  it('keeps a session-only key in memory and removes a stored one it replaces', async () => {
    const { store } = realStore(['p2'])
    await store.set(ref('p2'), 'stored-key-1111', false)
    const status = await store.set(ref('p2'), 'session-key-2222', true)
    expect(status).toMatchObject({ set: true, last4: '2222', storage: 'session' })
    const keytar = await loadKeytar()
    expect(await keytar.getPassword(SERVICE, 'p2')).toBeNull()
    const { store: fresh } = realStore([])
    expect(await fresh.get(ref('p2'))).toBeNull()
  })

  it('keeps one entry per profile', async () => {
    const { store } = realStore(['pa', 'pb'])
    await store.set(ref('pa'), 'key-for-a-AAAA', false)
    await store.set(ref('pb'), 'key-for-b-BBBB', false)
    expect(await store.get(ref('pa'))).toBe('key-for-a-AAAA')
    expect(await store.get(ref('pb'))).toBe('key-for-b-BBBB')
    await store.clear(ref('pa'))
    expect(await realStore([]).store.get(ref('pb'))).toBe('key-for-b-BBBB')
  })
})

describe('KeyStore without a usable keychain', () => {
  // Fault injection: keytar's own message when no Secret Service can be reached.
  const broken: KeychainBackend = {
    getPassword: () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')),
    setPassword: () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')),
    deletePassword: () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')),
  }

  it('explains the problem and offers a session-only key', async () => {
    const store = new KeyStore({ backend: async () => broken, redactor: new Redactor() })
    const status = await store.status(ref('p'))
    expect(status.keychainAvailable).toBe(false)
    expect(status.keychainProblem).toMatch(/No system keychain \(Secret Service\) is running/)
    await expect(store.set(ref('p'), 'some-key-1234', false)).rejects.toMatchObject({
      kind: 'keychain',
      message: expect.stringMatching(/this session only/),
    })
    const session = await store.set(ref('p'), 'some-key-1234', true)
    expect(session).toMatchObject({ set: true, last4: '1234', storage: 'session', keychainAvailable: false })
    expect(await store.get(ref('p'))).toBe('some-key-1234')
    expect(await store.clear(ref('p'))).toMatchObject({ set: false })
  })

  it('reports a keytar that cannot load as unavailable', async () => {
    const store = new KeyStore({
      backend: () => Promise.reject(new Error("Cannot find module '../build/Release/keytar.node'")),
      redactor: new Redactor(),
    })
    expect(await store.status(ref('p'))).toMatchObject({
      keychainAvailable: false,
      keychainProblem: expect.stringMatching(/cannot be loaded/),
    })
  })

  it('finds the real keytar unusable in a process without a D-Bus session', () => {
    // The real failure, not an injected one: keytar in a child with no session bus.
    const env = { ...process.env }
    delete env.DBUS_SESSION_BUS_ADDRESS
    delete env.DISPLAY
    const r = spawnSync(
      process.execPath,
      [
        '-e',
        "require('keytar').getPassword('Chainscope','x').then(()=>console.log('ok'),e=>console.log('ERR '+e.message))",
      ],
      { env, encoding: 'utf8' },
    )
    expect(r.stdout).toMatch(/^ERR /)
  })
})

describe('KeyStore and a key an earlier version stored under the profile id', () => {
  // Fault injection: a keychain that reads but refuses to store.
  const entries = new Map<string, string>([['old-id', 'legacy-key-9999']])
  const readOnly: KeychainBackend = {
    getPassword: async (_service, account) => entries.get(account) ?? null,
    setPassword: () => Promise.reject(new Error('The collection is locked')),
    deletePassword: async (_service, account) => entries.delete(account),
  }

  it('uses the old entry when the copy cannot be stored, and reads it again next time', async () => {
    let settled = 0
    const legacyRef = (): KeyRef => ({
      profileId: 'old-id',
      account: 'new-entry',
      legacy: { account: 'old-id', done: () => void settled++ },
    })
    const store = new KeyStore({ backend: async () => readOnly, redactor: new Redactor() })
    expect(await store.get(legacyRef())).toBe('legacy-key-9999')
    expect(settled).toBe(0)
    const fresh = new KeyStore({ backend: async () => readOnly, redactor: new Redactor() })
    expect(await fresh.get(legacyRef())).toBe('legacy-key-9999')
    // Clearing settles it without touching the old entry (another data folder may read it).
    await fresh.clear(legacyRef())
    expect(settled).toBe(1)
    expect(entries.get('old-id')).toBe('legacy-key-9999')
  })
})

import { beforeEach, describe, expect, it } from 'vitest'
import type { KeyStatus } from '@shared/bridge/contract'
import { FakeBridgeFailure } from '../testing/fake-bridge'
import { sandboxProfile } from '../testing/samples'
import { setupTestApp, settle, type TestApp } from '../testing/mount'
import { useSessionStore } from './session-store'

const keyStatus = (profileId: string, set: boolean, last4: string | null = null): KeyStatus => ({
  profileId,
  set,
  last4,
  storage: set ? 'keychain' : 'none',
  keychainAvailable: true,
  keychainProblem: null,
})

describe('session store', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
  })

  it('starts with no active profile on a first run', async () => {
    t.bridge.handle('profiles.list', () => [sandboxProfile(false, false)])
    const s = useSessionStore()
    await s.load()
    expect(s.loaded).toBe(true)
    expect(s.active).toBeNull()
    expect(s.ready).toBe(false)
  })

  it('starts the sandbox and becomes ready on its events', async () => {
    t.bridge.handle('profiles.list', () => [sandboxProfile(false, false)])
    t.bridge.handle('profiles.activate', () => sandboxProfile(true, false))
    const s = useSessionStore()
    await s.load()
    const started = await s.startSandbox()
    expect(started.ok).toBe(true)
    expect(s.sandbox?.state).toBe('starting')
    expect(s.ready).toBe(false)
    t.bridge.emit('sandbox', {
      state: 'starting',
      message: 'Preparing',
      progress: { stage: 'seeding', done: 10, total: 100 },
    })
    expect(s.sandbox?.progress?.done).toBe(10)
    t.bridge.emit('profiles.changed', [sandboxProfile(true, true)])
    t.bridge.emit('sandbox', { state: 'ready', message: null, progress: null })
    expect(s.ready).toBe(true)
    expect(s.networks.map((n) => n.name)).toEqual(['alpha', 'beta'])
  })

  it('reports a sandbox that cannot start', async () => {
    t.bridge.handle('profiles.activate', () => {
      throw new FakeBridgeFailure({ kind: 'offline', message: 'anvil not found' })
    })
    const s = useSessionStore()
    const result = await s.startSandbox()
    expect(result.ok).toBe(false)
    expect(s.sandbox).toMatchObject({ state: 'failed', message: 'anvil not found' })
  })

  it('restarts the sandbox when it was left active', async () => {
    t.bridge.handle('profiles.list', () => [sandboxProfile(true, false)])
    t.bridge.handle('key.status', () => keyStatus('sandbox', false))
    t.bridge.handle('sandbox.status', () => ({ state: 'stopped', message: null, progress: null }))
    t.bridge.handle('profiles.activate', () => sandboxProfile(true, true))
    const s = useSessionStore()
    await s.load()
    await settle()
    expect(t.bridge.callsOf('profiles.activate')).toEqual([{ id: 'sandbox' }])
    expect(s.ready).toBe(true)
  })

  it('does not start a sandbox that was stopped (by the user or unexpectedly) when the app opens', async () => {
    t.bridge.handle('profiles.list', () => [sandboxProfile(true, false)])
    t.bridge.handle('key.status', () => keyStatus('sandbox', false))
    t.bridge.handle('sandbox.status', () => ({
      state: 'stopped',
      message: 'The built-in sandbox stopped unexpectedly.',
      progress: null,
      stoppedAt: '2026-11-27T07:33:12.000Z',
      unexpected: true,
    }))
    const s = useSessionStore()
    await s.load()
    await settle()
    expect(t.bridge.callsOf('profiles.activate')).toEqual([])
    expect(s.sandbox).toMatchObject({ state: 'stopped', unexpected: true })
  })

  it('hands the key to main and keeps only its status', async () => {
    const service = { ...sandboxProfile(false), id: 'svc', kind: 'service' as const, name: 'Service' }
    t.bridge.handle('profiles.save', () => service)
    t.bridge.handle('key.set', (input) => keyStatus(input.profileId, true, input.key.slice(-4)))
    t.bridge.handle('profiles.activate', () => ({ ...service, active: true }))
    t.bridge.handle('key.status', () => keyStatus('svc', true, 'WXYZ'))
    const s = useSessionStore()
    await s.saveProfile({
      name: 'Service',
      baseUrl: 'https://a.example',
      rpcUrl: 'https://r.example',
      networks: [
        { name: 'a', label: 'A' },
        { name: 'b', label: 'B' },
      ],
    })
    await s.setKey('svc', 'secret-key-WXYZ', false)
    await s.activate('svc')
    expect(s.activeKey).toMatchObject({ set: true, last4: 'WXYZ' })
    expect(s.ready).toBe(true)
    expect(JSON.stringify(s.$state)).not.toContain('secret-key')
  })

  it('surfaces a load failure', async () => {
    t.bridge.handle('profiles.list', () => {
      throw new FakeBridgeFailure({ kind: 'internal', message: 'settings unreadable' })
    })
    const s = useSessionStore()
    await s.load()
    expect(s.loadError?.message).toBe('settings unreadable')
    expect(s.loaded).toBe(true)
  })
})

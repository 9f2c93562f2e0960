import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SettingsStore } from './settings-store'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'settings-store-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

const input = (id: string) => ({
  id,
  name: 'P',
  baseUrl: 'http://127.0.0.1:1',
  rpcUrl: 'http://127.0.0.1:1/rpc',
  networks: [
    { name: 'one', label: 'One' },
    { name: 'two', label: 'Two' },
  ] as [{ name: string; label: string }, { name: string; label: string }],
})

describe('SettingsStore', () => {
  it('loads a profile saved before billing existed as per call plus one per batch; the sandbox counts as it says', () => {
    const old = {
      version: 1,
      activeProfileId: 'svc',
      profiles: [{ ...input('svc'), limits: { ratePerSecond: 50, burst: 5, quotaPerDay: 1000 } }],
      sandbox: { limits: null, networks: [] },
      balanceSpelling: {},
      settings: { allowRemoteIcons: false },
    }
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(old))
    const store = new SettingsStore(dir)
    expect(store.notice).toBeNull()
    expect(store.get('svc').billing).toBe('call-plus-batch')
    expect(store.sandboxProfile().billing).toBe('request')
    store.setSandboxRuntime({ baseUrl: 'http://127.0.0.1:2', rpcUrl: 'http://127.0.0.1:2/rpc' }, null, 'call')
    expect(store.sandboxProfile().billing).toBe('call')
    store.setSandboxRuntime({ baseUrl: '', rpcUrl: '' }, null, 'bogus')
    expect(store.sandboxProfile().billing).toBe('request')
    // Chosen in the form, kept by a limits edit that does not name it, and written to the file.
    store.save({ ...input('svc'), billing: 'request' })
    store.setLimits('svc', { ratePerSecond: 10, burst: 2, quotaPerDay: 500, scope: 'key' })
    expect(new SettingsStore(dir).get('svc').billing).toBe('request')
    store.setLimits('svc', { ratePerSecond: 10, burst: 2, quotaPerDay: 500, scope: 'key' }, 'call')
    expect(new SettingsStore(dir).get('svc').billing).toBe('call')
  })

  it('knows no balances spelling for a profile whose id names a property of every object', () => {
    const store = new SettingsStore(dir)
    for (const id of ['constructor', 'tostring', 'valueof']) {
      store.save(input(id))
      expect(store.spelling(id).get()).toBeNull()
      store.spelling(id).set('balances')
      expect(store.spelling(id).get()).toBe('balances')
    }
  })

  it('keeps a damaged or hostile settings file aside and starts clean, with a notice', () => {
    for (const text of [
      '[]',
      'null',
      '"settings"',
      '{"version":1,"__proto__":{"activeProfileId":"x"}}',
      '{"version":1,"profiles":"x"}',
      '\u0000\uffff',
    ]) {
      writeFileSync(join(dir, 'settings.json'), text)
      const store = new SettingsStore(dir)
      expect(store.notice).toMatch(
        /settings file was damaged \((it has no schema version|it is not valid JSON|[\w.]+: [^\n]+)\)/,
      )
      expect(store.notice!.length).toBeLessThan(400)
      expect(store.activeProfileId).toBeNull()
      expect(store.list().map((p) => p.id)).toEqual(['sandbox'])
      expect(({} as Record<string, unknown>).activeProfileId).toBeUndefined()
    }
    expect(readdirSync(dir).filter((f) => f.includes('.damaged-')).length).toBeGreaterThan(0)
  })

  it("loads limits saved before the scope option as per key ('key'), and keeps a chosen scope", () => {
    const limits = { ratePerSecond: 20, burst: 3, quotaPerDay: 700 }
    const old = {
      version: 1,
      activeProfileId: 'old-1',
      profiles: [{ ...input('old-1'), limits }],
      sandbox: { limits, networks: [] },
      balanceSpelling: {},
      settings: { allowRemoteIcons: false },
    }
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(old))
    const store = new SettingsStore(dir)
    expect(store.notice).toBeNull()
    expect(store.get('old-1').limits).toEqual({ ...limits, scope: 'key' })
    expect(store.get('sandbox').limits).toEqual({ ...limits, scope: 'key' })
    store.setLimits('old-1', { ...limits, scope: 'network-endpoint' })
    expect(new SettingsStore(dir).get('old-1').limits.scope).toBe('network-endpoint')
  })
})

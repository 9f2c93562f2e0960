import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SettingsStore } from './settings-store'
import { SANDBOX_PROFILE_ID } from '@shared/domain/profile'
import { DiskReports } from '../util/disk-error'

let dir: string
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'settings-store-'))
})
afterEach(async () => {
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
  it('loads a profile saved before billing existed as per call plus one per batch; the sandbox counts as it says', async () => {
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
    await store.save({ ...input('svc'), billing: 'request' })
    await store.setLimits('svc', { ratePerSecond: 10, burst: 2, quotaPerDay: 500, scope: 'key' })
    expect(new SettingsStore(dir).get('svc').billing).toBe('request')
    await store.setLimits('svc', { ratePerSecond: 10, burst: 2, quotaPerDay: 500, scope: 'key' }, 'call')
    expect(new SettingsStore(dir).get('svc').billing).toBe('call')
  })

  it('knows no balances spelling for a profile whose id names a property of every object', async () => {
    const store = new SettingsStore(dir)
    for (const id of ['constructor', 'tostring', 'valueof']) {
      await store.save(input(id))
      expect(store.spelling(id).get()).toBeNull()
      store.spelling(id).set('balances')
      expect(store.spelling(id).get()).toBe('balances')
    }
  })

  it('keeps a damaged or hostile settings file aside and starts clean, with a notice', async () => {
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

  it("loads limits saved before the scope option as per key ('key'), and keeps a chosen scope", async () => {
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
    await store.setLimits('old-1', { ...limits, scope: 'network-endpoint' })
    expect(new SettingsStore(dir).get('old-1').limits.scope).toBe('network-endpoint')
  })

  it('names keychain entries by a random id per folder and the origins, never by the id a caller gives', async () => {
    const other = mkdtempSync(join(tmpdir(), 'settings-store-'))
    try {
      const here = new SettingsStore(dir)
      const there = new SettingsStore(other)
      await here.save(input('same'))
      await there.save(input('same'))
      const ref = here.keyRef('same')
      expect(ref.account).toMatch(/^[0-9a-f]{32} http:\/\/127\.0\.0\.1:1 http:\/\/127\.0\.0\.1:1$/)
      expect(there.keyRef('same').account).not.toBe(ref.account)
      expect(ref.legacy).toBeUndefined()
      // An edit keeps the entry; new origins name another; the id is never shown to the renderer.
      await here.save({ ...input('same'), name: 'Renamed' })
      expect(here.keyRef('same').account).toBe(ref.account)
      expect(new SettingsStore(dir).keyRef('same').account).toBe(ref.account)
      await here.save({ ...input('same'), rpcUrl: 'https://rpc.example' })
      expect(here.keyRef('same').account).toBe(`${ref.account.split(' ')[0]} http://127.0.0.1:1 https://rpc.example`)
      expect(JSON.stringify(here.list())).not.toContain(ref.account.split(' ')[0])
      expect(() => here.keyRef('missing')).toThrow(/no profile "missing"/)
    } finally {
      rmSync(other, { recursive: true, force: true })
    }
  })

  it('keeps what it learnt for the session when the disk refuses it, told once in plain words', async () => {
    mkdirSync(join(dir, 'settings.json', 'blocker'), { recursive: true })
    const told: string[] = []
    const store = new SettingsStore(dir, new DiskReports((m) => told.push(m)))
    store.spelling(SANDBOX_PROFILE_ID).set('balances')
    await store.settled()
    expect(store.spelling(SANDBOX_PROFILE_ID).get()).toBe('balances')
    expect(told).toEqual([
      expect.stringMatching(
        /^Chainscope could not save the settings: a folder stands where a data file should be\. It goes on working from memory; what it learned/,
      ),
    ])
  })

  it('gives profiles of an older file their own entry, pointing once at the old one', async () => {
    const limits = { ratePerSecond: 20, burst: 3, quotaPerDay: 700 }
    const old = {
      version: 1,
      activeProfileId: null,
      profiles: [{ ...input('old-1'), limits }],
      sandbox: { limits: null, networks: [] },
      balanceSpelling: {},
      settings: { allowRemoteIcons: false },
    }
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(old))
    const first = new SettingsStore(dir)
    const ref = first.keyRef('old-1')
    expect(ref.legacy?.account).toBe('old-1')
    await first.settled()
    // Saved at once: the next start names the same new entry and still points at the old one.
    const store = new SettingsStore(dir)
    const again = store.keyRef('old-1')
    expect(again.account).toBe(ref.account)
    again.legacy!.done()
    await store.settled()
    expect(new SettingsStore(dir).keyRef('old-1')).toEqual({ profileId: 'old-1', account: ref.account })
  })

  it("names each network's coin: the sandbox's from its ready line; a service's as saved, checked; old profiles without one load", async () => {
    const store = new SettingsStore(dir)
    const urls = { baseUrl: 'http://127.0.0.1:2', rpcUrl: 'http://127.0.0.1:2/rpc' }
    store.setSandboxRuntime(urls, ['alpha', 'beta'], 'request', {
      alpha: { symbol: 'ALPHA', decimals: 18 },
      beta: { symbol: 'not a symbol!', decimals: 18 },
    })
    expect(store.sandboxProfile().networks).toEqual([
      { name: 'alpha', label: 'Alpha', coin: { symbol: 'ALPHA', decimals: 18 } },
      // A coin the ready line got wrong is no coin: the views say "coin".
      { name: 'beta', label: 'Beta' },
    ])
    const named = input('svc')
    named.networks[0] = { ...named.networks[0], coin: { symbol: 'ETH', decimals: 18 } } as (typeof named.networks)[0]
    await store.save(named)
    expect(new SettingsStore(dir).get('svc').networks[0]).toEqual({
      name: 'one',
      label: 'One',
      coin: { symbol: 'ETH', decimals: 18 },
    })
    expect(new SettingsStore(dir).get('svc').networks[1]).toEqual({ name: 'two', label: 'Two' })
    const bad = input('bad')
    bad.networks[1] = { ...bad.networks[1], coin: { symbol: 'E T H', decimals: 300 } } as (typeof bad.networks)[1]
    await expect(store.save(bad)).rejects.toThrow(
      /coin symbol is 1-16 letters|decimals are a whole number from 0 to 255/,
    )
  })
})

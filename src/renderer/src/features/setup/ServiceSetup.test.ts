import { beforeEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import type { KeyStatus, ProfileView } from '@shared/bridge/contract'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import ServiceSetup from './ServiceSetup.vue'

const KEY = 'live_9f8e7d6c5b4a3210WXYZ'

function profile(active = false): ProfileView {
  return {
    id: 'svc',
    name: 'My service',
    kind: 'service',
    baseUrl: 'https://api.example.com',
    rpcUrl: 'https://rpc.example.com',
    networks: [
      { name: 'mainnet', label: 'Mainnet' },
      { name: 'testnet', label: 'Testnet' },
    ],
    billing: 'call-plus-batch',
    limits: { ratePerSecond: 50, burst: 5, quotaPerDay: 1000, scope: 'key' },
    active,
  }
}
const status = (set: boolean): KeyStatus => ({
  profileId: 'svc',
  set,
  last4: set ? 'WXYZ' : null,
  storage: set ? 'keychain' : 'none',
  keychainAvailable: true,
  keychainProblem: null,
})

describe('ServiceSetup', () => {
  let t: TestApp
  let testAnswer: 'ok' | 'auth'
  beforeEach(() => {
    t = setupTestApp()
    testAnswer = 'ok'
    t.bridge.handle('profiles.save', () => profile())
    t.bridge.handle('key.set', () => status(true))
    t.bridge.handle('key.status', () => status(true))
    t.bridge.handle('key.test', () => {
      if (testAnswer === 'auth')
        throw new FakeBridgeFailure({ kind: 'auth', message: 'The service answered 401 unauthorized.' })
      return { latencyMs: 12, height: '345' }
    })
    t.bridge.handle('profiles.activate', () => profile(true))
  })

  async function fill(w: ReturnType<typeof mountWith>, key = KEY) {
    const byLabel = (label: string) => {
      const l = w.findAll('label').find((x) => x.text() === label)!
      return w.get(`#${l.attributes('for')}`)
    }
    await byLabel('Data API address').setValue('https://api.example.com/')
    await byLabel('RPC address').setValue('https://rpc.example.com')
    await byLabel('First network name').setValue('mainnet')
    await byLabel('Second network name').setValue('testnet')
    await byLabel('API key').setValue(key)
    return byLabel
  }

  it('saves the profile, hands the key to main once, tests it and switches', async () => {
    const w = mountWith(ServiceSetup, t)
    const byLabel = await fill(w)
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(t.bridge.calls.map((c) => c.name)).toEqual([
      'key.status',
      'profiles.save',
      'key.set',
      'key.test',
      'profiles.activate',
      'key.status',
    ])
    expect(t.bridge.callsOf('profiles.save')[0]).toMatchObject({
      baseUrl: 'https://api.example.com',
      networks: [
        { name: 'mainnet', label: 'Mainnet' },
        { name: 'testnet', label: 'Testnet' },
      ],
      // Not asked of the user first: the safest guess, explained beside the choice.
      billing: 'call-plus-batch',
    })
    expect(w.text()).toContain('Per call, plus one per batch: a batch of N calls costs N + 1')
    expect(t.bridge.callsOf('key.set')[0]).toEqual({ profileId: 'svc', key: KEY, sessionOnly: false })
    // The key left the page: the field is empty and only the last four are shown.
    expect((byLabel('API key').element as HTMLInputElement).value).toBe('')
    expect(document.body.innerHTML).not.toContain(KEY)
    expect(w.text()).toContain('set · …WXYZ')
    expect(w.emitted('done')).toEqual([['svc']])
    w.unmount()
  })

  it('explains a rejected key in plain words and lets the user paste it again', async () => {
    testAnswer = 'auth'
    const w = mountWith(ServiceSetup, t)
    await fill(w, 'wrong-key-0000')
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(w.text()).toContain('The service refused the API key')
    expect(w.text()).toContain('The service refused this key. Paste it again from the developer portal.')
    expect(w.emitted('done')).toBeUndefined()
    expect(t.bridge.callsOf('profiles.activate')).toHaveLength(0)
    testAnswer = 'ok'
    const l = w.findAll('label').find((x) => x.text() === 'API key')!
    await w.get(`#${l.attributes('for')}`).setValue(KEY)
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(w.emitted('done')).toEqual([['svc']])
    // The second save updates the same profile instead of creating another.
    expect(t.bridge.callsOf('profiles.save')[1]).toMatchObject({ id: 'svc' })
    w.unmount()
  })

  it("names each network's coin when given, checked like the other fields", async () => {
    const w = mountWith(ServiceSetup, t)
    const byLabel = await fill(w)
    await byLabel('First network coin symbol').setValue('E T H')
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(w.text()).toContain(
      'Check the coin symbol: a coin symbol is 1-16 letters, digits, dots, dashes or underscores, or leave it empty.',
    )
    expect(t.bridge.callsOf('profiles.save')).toHaveLength(0)
    await byLabel('First network coin symbol').setValue('ETH')
    await w.get('form').trigger('submit')
    await flushPromises()
    // The second network names none: its coin stays "coin" in the views.
    expect(t.bridge.callsOf('profiles.save')[0]).toMatchObject({
      networks: [
        { name: 'mainnet', label: 'Mainnet', coin: { symbol: 'ETH', decimals: 18 } },
        { name: 'testnet', label: 'Testnet' },
      ],
    })
    expect((t.bridge.callsOf('profiles.save')[0] as { networks: object[] }).networks[1]).not.toHaveProperty('coin')
    w.unmount()
  })

  it('checks the form before calling main', async () => {
    const w = mountWith(ServiceSetup, t)
    await w.get('form').trigger('submit')
    await flushPromises()
    // Only the keychain probe; nothing was saved.
    expect(t.bridge.calls.map((c) => c.name)).toEqual(['key.status'])
    expect(w.text()).toContain('Enter the data API address')
    expect(w.text()).toContain('Paste the API key')
    expect(w.findAll('[aria-invalid="true"]').length).toBeGreaterThanOrEqual(4)
    w.unmount()
  })

  it('shows main’s field errors beside the field', async () => {
    t.bridge.handle('profiles.save', () => {
      throw new FakeBridgeFailure({
        kind: 'invalid-input',
        message: 'profiles.save: rpcUrl: the URL must not carry a query or fragment (the key is added by the app)',
        field: 'rpcUrl',
      })
    })
    const w = mountWith(ServiceSetup, t)
    await fill(w)
    await w.get('form').trigger('submit')
    await flushPromises()
    const l = w.findAll('label').find((x) => x.text() === 'RPC address')!
    const input = w.get(`#${l.attributes('for')}`)
    expect(input.attributes('aria-invalid')).toBe('true')
    expect(w.get(`#${input.attributes('aria-describedby')}`).text()).toContain('must not carry a query')
    w.unmount()
  })

  it('keeps the key for the session only when there is no keychain, and says so', async () => {
    t.bridge.handle('key.status', () => ({
      ...status(false),
      profileId: 'sandbox',
      keychainAvailable: false,
      keychainProblem: 'No Secret Service is running.',
    }))
    const w = mountWith(ServiceSetup, t)
    await flushPromises()
    expect(w.text()).toContain('The system keychain cannot be used: No Secret Service is running.')
    const box = w.get('input[type="checkbox"]')
    expect((box.element as HTMLInputElement).checked).toBe(true)
    expect(box.attributes('disabled')).toBeDefined()
    await fill(w)
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(t.bridge.callsOf('key.set')[0]).toMatchObject({ sessionOnly: true })
    w.unmount()
  })
})

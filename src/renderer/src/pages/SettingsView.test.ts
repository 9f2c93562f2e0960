import { beforeEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import type { ProfileView } from '@shared/bridge/contract'
import { makeLimiter, sandboxProfile } from '../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../testing/mount'
import { QuotaMeter } from '../features/shell'
import { useSessionStore } from '../platform/session-store'
import SettingsView from './SettingsView.vue'

describe('SettingsView limits', () => {
  let t: TestApp
  beforeEach(() => {
    localStorage.clear()
    t = setupTestApp()
    useSessionStore().profiles = [sandboxProfile(true, true)]
    t.bridge.handle(
      'profiles.setLimits',
      ({ id, limits }) => ({ ...sandboxProfile(true, true), id, limits: { scope: 'key', ...limits } }) as ProfileView,
    )
  })

  it('offers what the limits apply to, per key by default, and saves the choice', async () => {
    const w = mountWith(SettingsView, t)
    const select = w.get<HTMLSelectElement>('select')
    // Named by its visible label.
    const label = w.findAll('label').find((l) => l.attributes('for') === select.attributes('id'))
    expect(label?.text()).toBe('Limits apply')
    expect(select.findAll('option').map((o) => [o.attributes('value'), o.text()])).toEqual([
      ['key', 'per key (safest)'],
      ['network', 'per network'],
      ['endpoint', 'per endpoint'],
      ['network-endpoint', 'per network and endpoint'],
    ])
    expect(select.element.value).toBe('key')
    await select.setValue('network-endpoint')
    await w.get('form.limits').trigger('submit')
    await flushPromises()
    expect(t.bridge.callsOf('profiles.setLimits')).toEqual([
      { id: 'sandbox', limits: { ratePerSecond: 50, burst: 5, quotaPerDay: 1000, scope: 'network-endpoint' } },
    ])
    expect(useSessionStore().profiles[0]!.limits.scope).toBe('network-endpoint')
    w.unmount()
  })

  it("shows a profile's saved scope", async () => {
    useSessionStore().profiles = [
      { ...sandboxProfile(true, true), limits: { ratePerSecond: 50, burst: 5, quotaPerDay: 1000, scope: 'endpoint' } },
    ]
    const w = mountWith(SettingsView, t)
    expect(w.get<HTMLSelectElement>('select').element.value).toBe('endpoint')
    w.unmount()
  })

  it('the quota meter names the bucket it shows when the limits are split', async () => {
    const w = mountWith(QuotaMeter, t)
    t.bridge.emit('limiter', makeLimiter({ scope: 'network-endpoint', scopeKey: 'beta|rpc' }))
    await flushPromises()
    expect(w.get('[role="meter"]').attributes('aria-valuetext')).toMatch(
      /; limits apply per network and endpoint, shown for beta, RPC endpoint \(least left\)$/,
    )
    t.bridge.emit('limiter', makeLimiter({ scope: 'key' }))
    await flushPromises()
    expect(w.get('[role="meter"]').attributes('aria-valuetext')).not.toMatch(/limits apply/)
    w.unmount()
  })

  it("a service profile's limits are in its unit, and how its service counts is chosen there, explained in a line", async () => {
    const service: ProfileView = {
      ...sandboxProfile(true, true),
      id: 'svc',
      name: 'Svc',
      kind: 'service',
      billing: 'call-plus-batch',
    }
    useSessionStore().profiles = [service]
    t.bridge.handle(
      'profiles.setLimits',
      ({ limits, billing }) =>
        ({ ...service, limits: { scope: 'key', ...limits }, billing: billing ?? service.billing }) as ProfileView,
    )
    const w = mountWith(SettingsView, t)
    const labels = w.findAll('label').map((l) => l.text())
    expect(labels).toContain('Units per second')
    expect(labels).toContain('Units per day')
    const select = w.findAll('select').find((s) => s.find('option[value="call"]').exists())!
    expect(select.element.value).toBe('call-plus-batch')
    expect(w.text()).toContain('a batch of N calls costs N + 1 (the safest guess)')
    await select.setValue('call')
    expect(w.text()).toContain('Per call: a batch of N calls costs N.')
    expect(w.findAll('label').map((l) => l.text())).toContain('Calls per second')
    await w.get('form.limits').trigger('submit')
    await flushPromises()
    expect(t.bridge.callsOf('profiles.setLimits')).toEqual([
      { id: 'svc', limits: { ratePerSecond: 50, burst: 5, quotaPerDay: 1000, scope: 'key' }, billing: 'call' },
    ])
    w.unmount()
  })

  it('the quota meter counts in the unit the service bills', async () => {
    const w = mountWith(QuotaMeter, t)
    t.bridge.emit('limiter', makeLimiter({ billing: 'call-plus-batch', usedToday: 107 }))
    await flushPromises()
    expect(w.get('[role="meter"]').attributes('aria-valuetext')).toMatch(/^107 of 1000 units used today/)
    t.bridge.emit('limiter', makeLimiter({ billing: 'call', usedToday: 104 }))
    await flushPromises()
    expect(w.get('[role="meter"]').attributes('aria-valuetext')).toMatch(/^104 of 1000 calls used today/)
    w.unmount()
  })
})

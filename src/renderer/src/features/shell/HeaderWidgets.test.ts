import { beforeEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import type { EndpointConnection } from '@shared/bridge/contract'
import { makeHeight, makeLimiter, sandboxProfile } from '../../testing/samples'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { useSessionStore } from '../../platform/session-store'
import { useClockStore } from '../../platform/clock-store'
import HeightBadges from './HeightBadges.vue'
import { NetworkSwitch } from '../address'
import OfflineIndicator from './OfflineIndicator.vue'
import QuotaMeter from './QuotaMeter.vue'
import WorkOfflineSwitch from './WorkOfflineSwitch.vue'

describe('header widgets', () => {
  let t: TestApp
  beforeEach(async () => {
    localStorage.clear()
    t = setupTestApp()
    useSessionStore().profiles = [sandboxProfile(true, true)]
    await t.router.push('/')
  })

  it('quota meter: used, left, reset time and throttling, as a meter', async () => {
    const w = mountWith(QuotaMeter, t)
    expect(w.find('[role="meter"]').exists()).toBe(false)
    t.bridge.emit(
      'limiter',
      makeLimiter({ usedToday: 850, leftToday: 150, throttled: true, queued: { user: 2, prefetch: 1, background: 0 } }),
    )
    await flushPromises()
    const meter = w.get('[role="meter"]')
    expect(meter.attributes('aria-valuenow')).toBe('850')
    expect(meter.attributes('aria-valuemax')).toBe('1000')
    expect(meter.attributes('aria-valuetext')).toMatch(
      /^850 of 1000 requests used today, 150 left, resets at \d\d:\d\d/,
    )
    expect(w.text()).toContain('150 / 1000 left')
    expect(w.text()).toContain('throttled')
    expect(w.text()).toContain('3 queued')
    expect(w.get('.bar').classes()).toContain('warn')
    w.unmount()
  })

  it('quota meter: says when the service refuses requests and follows its quota', async () => {
    const w = mountWith(QuotaMeter, t)
    const since = new Date(2026, 0, 1, 14, 5).toISOString()
    t.bridge.emit(
      'limiter',
      makeLimiter({ usedToday: 1000, leftToday: 0, throttled: true, refusing: { since, count: 4 } }),
    )
    await flushPromises()
    expect(w.text()).toContain('service refusing since 14:05 (4)')
    expect(w.text()).toContain('0 / 1000 left')
    expect(w.get('[role="meter"]').attributes('aria-valuetext')).toContain(
      'the service is refusing requests (since 14:05, 4 refused)',
    )
    w.unmount()
  })

  it('heights: per network, marked estimated, or the last observed height with its time; gas with its time', async () => {
    const w = mountWith(HeightBadges, t)
    expect(w.findAll('.skeleton')).toHaveLength(2)
    const seen = new Date(2026, 0, 1, 7, 31).toISOString()
    t.bridge.emit('height', makeHeight('alpha', '1234567', { estimated: true, gasObservedAt: seen }))
    t.bridge.emit(
      'height',
      makeHeight('beta', '1006', { stale: true, gasPriceWei: '2500000000', observedAt: seen, gasObservedAt: seen }),
    )
    await flushPromises()
    const groups = w.findAll('[role="group"]')
    expect(groups[0]!.attributes('aria-label')).toBe('Alpha block height and gas price')
    expect(groups[0]!.text()).toMatch(/Alpha\s*#1,234,567\s*estimated\s*1.5 gwei at 07:31/)
    expect(groups[1]!.text()).toMatch(/Beta\s*#1,006\s*· seen 07:31\s*2.5 gwei at 07:31/)
    // An extrapolation past a few block times after its observation is not shown: the
    // observation is, with its time.
    t.bridge.emit(
      'height',
      makeHeight('alpha', '1010', {
        estimated: true,
        observedHeight: '1006',
        observedAt: seen,
        liveUntil: new Date(Date.now() - 1000).toISOString(),
      }),
    )
    await flushPromises()
    expect(w.findAll('[role="group"]')[0]!.text()).toMatch(/Alpha\s*#1,006\s*· seen 07:31/)
    expect(w.findAll('[role="group"]')[0]!.text()).not.toContain('estimated')
    // No reading, no gas price: absent rather than a number of unknown age.
    t.bridge.emit('height', makeHeight('beta', '1006', { gasPriceWei: null, gasObservedAt: null }))
    await flushPromises()
    expect(w.findAll('[role="group"]')[1]!.text()).not.toContain('gwei')
    w.unmount()
  })

  it('connection: "Online" only while calls answer, otherwise what is known', async () => {
    const off = mountWith(OfflineIndicator, t)
    expect(off.text()).toBe('Not checked yet')
    const since = new Date(Date.now() - 60_000)
    const endpoint = (e: Partial<EndpointConnection>): EndpointConnection => ({
      network: 'alpha',
      endpoint: 'data',
      state: 'answering',
      lastSuccessAt: since.toISOString(),
      since: null,
      nextRetryAt: null,
      until: null,
      reason: null,
      ...e,
    })
    t.bridge.emit('connectivity', { profileId: 'sandbox', workOffline: false, endpoints: [endpoint({})] })
    await flushPromises()
    expect(off.text()).toBe('Online')
    t.bridge.emit('connectivity', {
      profileId: 'sandbox',
      workOffline: false,
      endpoints: [
        endpoint({
          state: 'not-answering',
          since: since.toISOString(),
          nextRetryAt: new Date(Date.now() + 40_000).toISOString(),
          reason: 'The service did not answer within 15 s.',
        }),
      ],
    })
    useClockStore().tick()
    await flushPromises()
    const clock = `${String(since.getHours()).padStart(2, '0')}:${String(since.getMinutes()).padStart(2, '0')}`
    expect(off.text()).toMatch(new RegExp(`^Not answering since ${clock} · retrying in (40|39) s$`))
    expect(off.attributes('title')).toBe('Alpha data API: The service did not answer within 15 s.')
    t.bridge.emit('connectivity', { profileId: 'sandbox', workOffline: true, endpoints: [endpoint({})] })
    await flushPromises()
    expect(off.text()).toBe('Offline by choice')
    off.unmount()

    await t.router.push('/address/alpha/0x52908400098527886E0F7030069857D2E4169EE7/transactions')
    const sw = mountWith(NetworkSwitch, t)
    const radios = sw.findAll('input[type="radio"]')
    expect(radios.map((r) => (r.element as HTMLInputElement).checked)).toEqual([true, false])
    await radios[1]!.setValue(true)
    await flushPromises()
    expect(t.router.currentRoute.value.fullPath).toBe(
      '/address/beta/0x52908400098527886E0F7030069857D2E4169EE7/transactions',
    )
    sw.unmount()
  })

  it('work offline: a switch by role and name that main keeps', async () => {
    let saved = false
    t.bridge.handle('connection.setWorkOffline', ({ on }) => {
      saved = on
      return { profileId: 'sandbox', workOffline: on, endpoints: [] }
    })
    const sw = mountWith(WorkOfflineSwitch, t)
    const input = sw.get('input[role="switch"]')
    expect(sw.text()).toBe('Work offline')
    expect((input.element as HTMLInputElement).checked).toBe(false)
    await input.setValue(true)
    await flushPromises()
    expect(saved).toBe(true)
    expect((input.element as HTMLInputElement).checked).toBe(true)
    sw.unmount()
  })

  it('work offline: a save main refuses leaves the switch as main has it, and says why', async () => {
    t.bridge.handle('connection.setWorkOffline', () => {
      throw new FakeBridgeFailure({ kind: 'internal', message: 'The settings could not be saved (disk full).' })
    })
    const sw = mountWith(WorkOfflineSwitch, t)
    const input = sw.get('input[role="switch"]')
    await input.setValue(true)
    await flushPromises()
    expect((input.element as HTMLInputElement).checked).toBe(false)
    expect(sw.get('[role="alert"]').text()).toContain('could not be saved')
    sw.unmount()
  })
})

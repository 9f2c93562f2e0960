import { beforeEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { makeHeight, makeLimiter, sandboxProfile } from '../../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { useSessionStore } from '../../platform/session-store'
import HeightBadges from './HeightBadges.vue'
import { NetworkSwitch } from '../address'
import OfflineIndicator from './OfflineIndicator.vue'
import QuotaMeter from './QuotaMeter.vue'

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

  it('heights: per network, marked estimated or stale, with gas in gwei', async () => {
    const w = mountWith(HeightBadges, t)
    expect(w.findAll('.skeleton')).toHaveLength(2)
    t.bridge.emit('height', makeHeight('alpha', '1234567', { estimated: true }))
    t.bridge.emit('height', makeHeight('beta', '99', { stale: true, gasPriceWei: '2500000000' }))
    await flushPromises()
    const groups = w.findAll('[role="group"]')
    expect(groups[0]!.attributes('aria-label')).toBe('Alpha block height and gas price')
    expect(groups[0]!.text()).toMatch(/Alpha\s*#1,234,567\s*estimated\s*1.5 gwei/)
    expect(groups[1]!.text()).toMatch(/Beta\s*#99\s*stale\s*2.5 gwei/)
    w.unmount()
  })

  it('offline indicator and network switch', async () => {
    const off = mountWith(OfflineIndicator, t)
    expect(off.text()).toBe('Online')
    t.bridge.emit('connectivity', { online: false, reason: 'connection refused' })
    await flushPromises()
    expect(off.text()).toBe('Offline')
    expect(off.attributes('title')).toBe('connection refused')
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
})

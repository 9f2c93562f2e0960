import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { makeHeight, makeLimiter, ME, sandboxProfile } from '../testing/samples'
import { setupTestApp, type TestApp } from '../testing/mount'
import { useChainStore } from './chain-store'
import { useClockStore } from './clock-store'
import type { EndpointConnection } from '@shared/bridge/contract'
import { useConnectivityStore } from './connectivity-store'
import { useLimiterStore } from './limiter-store'
import { useRecentStore } from './recent-store'
import { useSessionStore } from './session-store'

describe('small stores', () => {
  let t: TestApp
  beforeEach(() => {
    localStorage.clear()
    t = setupTestApp()
  })
  afterEach(() => vi.useRealTimers())

  it('chain: follows the profile networks and height events', async () => {
    t.bridge.handle('height.get', () => [makeHeight('alpha', '100')])
    const session = useSessionStore()
    const chain = useChainStore()
    session.profiles = [sandboxProfile(true, true)]
    await chain.load()
    await Promise.resolve()
    expect(chain.selectedNetwork?.name).toBe('alpha')
    t.bridge.emit('height', makeHeight('beta', '7', { estimated: true }))
    expect(chain.heights.beta?.estimated).toBe(true)
    chain.select('beta')
    expect(chain.selected).toBe('beta')
    chain.select('nope')
    expect(chain.selected).toBe('beta')
    expect(chain.labelOf('alpha')).toBe('Alpha')
  })

  it('limiter and connectivity: follow events', () => {
    const limiter = useLimiterStore()
    const conn = useConnectivityStore()
    t.bridge.emit('limiter', makeLimiter({ leftToday: 0, usedToday: 1000 }))
    expect(limiter.exhausted).toBe(true)
    expect(limiter.resetsAtMs).toBe(Date.parse('2026-01-02T00:00:00.000Z'))
    const endpoint = (state: EndpointConnection['state']): EndpointConnection => ({
      network: 'alpha',
      endpoint: 'rpc',
      state,
      lastSuccessAt: null,
      since: '2026-01-01T07:33:00.000Z',
      nextRetryAt: state === 'not-answering' ? new Date(Date.now() + 60_000).toISOString() : null,
      until: null,
      reason: 'Nothing answers at the service address (connection refused)',
    })
    t.bridge.emit('connectivity', { profileId: 'sandbox', workOffline: false, endpoints: [endpoint('not-answering')] })
    expect(conn.online).toBe(false)
    expect(conn.reason).toMatch(/^Not answering since \d\d:\d\d · retrying in \d+ s$/)
    t.bridge.emit('connectivity', { profileId: 'sandbox', workOffline: false, endpoints: [endpoint('answering')] })
    expect(conn.online).toBe(true)
    t.bridge.emit('connectivity', { profileId: 'sandbox', workOffline: true, endpoints: [endpoint('answering')] })
    expect(conn.online).toBe(false)
    expect(conn.reason).toBe('Offline by choice')
  })

  it('recent: newest first, deduplicated, bounded and robust to bad storage', () => {
    localStorage.setItem(
      'chainscope.recent.v1',
      JSON.stringify([
        { address: 'bad', network: 'a', at: 1 },
        { address: ME, network: 'alpha', at: 2 },
      ]),
    )
    const recent = useRecentStore()
    expect(recent.items).toHaveLength(1)
    for (let i = 0; i < 20; i++) recent.add(`0x${i.toString(16).padStart(40, '0')}`, 'alpha', i)
    recent.add(ME.toUpperCase().replace('0X', '0x'), 'alpha', 99)
    expect(recent.items).toHaveLength(12)
    expect(recent.items[0]!.at).toBe(99)
    expect(recent.items.filter((r) => r.address.toLowerCase() === ME)).toHaveLength(1)
  })

  it('clock: ticks on fake time', async () => {
    vi.useFakeTimers()
    vi.setSystemTime(1_000_000)
    const clock = useClockStore()
    clock.stop()
    clock.start(1000)
    await vi.advanceTimersByTimeAsync(3000)
    expect(clock.now).toBe(1_003_000)
    clock.stop()
  })
})

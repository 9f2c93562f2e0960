import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ERROR_KINDS } from '@shared/bridge/errors'
import { mountWith, setupTestApp, type TestApp } from '../testing/mount'
import { useClockStore } from './clock-store'
import ErrorPanel from './LiveErrorPanel.vue'

describe('ErrorPanel', () => {
  let t: TestApp
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(1_000_000)
    t = setupTestApp()
  })
  afterEach(() => vi.useRealTimers())

  it('counts down a retry-after before allowing a retry', async () => {
    const w = mountWith(ErrorPanel, t, {
      props: {
        error: { kind: 'rate-limited', message: 'Too many requests.', retryAfterMs: 3000 },
        arrivedAt: Date.now(),
      },
    })
    const button = () => w.get('button')
    expect(button().text()).toBe('Retry in 3 s')
    expect(button().attributes('disabled')).toBeDefined()
    await vi.advanceTimersByTimeAsync(3000)
    useClockStore().tick()
    await w.vm.$nextTick()
    expect(button().text()).toBe('Retry')
    await button().trigger('click')
    expect(w.emitted('retry')).toHaveLength(1)
    w.unmount()
  })

  it('counts from when it was given the error when no arrival time is passed', async () => {
    const w = mountWith(ErrorPanel, t, { props: { error: null } })
    await vi.advanceTimersByTimeAsync(10_000)
    useClockStore().tick()
    await w.setProps({ error: { kind: 'rate-limited', message: 'Too many requests.', retryAfterMs: 3000 } })
    expect(w.get('button').text()).toBe('Retry in 3 s')
    expect(w.get('button').attributes('disabled')).toBeDefined()
    await vi.advanceTimersByTimeAsync(3000)
    useClockStore().tick()
    await w.vm.$nextTick()
    expect(w.get('button').text()).toBe('Retry')
    w.unmount()
  })

  it('offers to fix the key on auth errors', () => {
    const w = mountWith(ErrorPanel, t, {
      props: { error: { kind: 'auth', message: 'The service answered 401.' }, context: 'Balances' },
    })
    expect(w.text()).toContain('Balances: The service refused the API key')
    expect(w.get('a').text()).toBe('Fix the API key')
    expect(w.get('a').attributes('href')).toBe('/settings')
    w.unmount()
  })

  it('renders every kind with a title and message, and nothing without an error', () => {
    for (const kind of ERROR_KINDS) {
      const w = mountWith(ErrorPanel, t, { props: { error: { kind, message: `msg-${kind}` } } })
      expect(w.get('[role="alert"]').text()).toContain(`msg-${kind}`)
      w.unmount()
    }
    const empty = mountWith(ErrorPanel, t, { props: { error: null } })
    expect(empty.find('[role="alert"]').exists()).toBe(false)
    empty.unmount()
  })
})

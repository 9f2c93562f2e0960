import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ERROR_KINDS } from '@shared/bridge/errors'
import { mountWith, setupTestApp, type TestApp } from '../testing/mount'
import { useClockStore } from './clock-store'
import ErrorPanel from './LiveErrorPanel.vue'
import PlainErrorPanel from '../ui/ErrorPanel.vue'
import ProvenanceNote from '../ui/ProvenanceNote.vue'
import LiveProvenanceNote from './LiveProvenanceNote.vue'

let t: TestApp
beforeEach(() => {
  vi.useFakeTimers()
  vi.setSystemTime(1_000_000)
  t = setupTestApp()
})
afterEach(() => vi.useRealTimers())

describe('ErrorPanel', () => {
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

  it('offline by choice: the way forward switches Work offline off, then tries again', async () => {
    const asked: boolean[] = []
    t.bridge.handle('connection.setWorkOffline', ({ on }) => {
      asked.push(on)
      return { profileId: 'sandbox', workOffline: on, endpoints: [] }
    })
    const w = mountWith(ErrorPanel, t, {
      props: { error: { kind: 'offline-by-choice', message: 'Work offline is on: Chainscope sends nothing.' } },
    })
    expect(w.text()).toContain('Work offline is on')
    await w.get('button.primary').trigger('click')
    await vi.advanceTimersByTimeAsync(0)
    expect(w.get('button.primary').text()).toBe('Switch Work offline off')
    expect(asked).toEqual([false])
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

  it('gives the panel the ticking clock only while an error counts down, so a panel with none is not rendered each tick', async () => {
    const w = mountWith(ErrorPanel, t, { props: { error: null } })
    const now = () => w.getComponent(PlainErrorPanel).props('now')
    const before = now()
    await vi.advanceTimersByTimeAsync(5000)
    expect(now()).toBe(before)
    await w.setProps({ error: { kind: 'auth', message: 'The service answered 401.' } })
    await vi.advanceTimersByTimeAsync(5000)
    expect(now()).toBe(before)
    await w.setProps({ error: { kind: 'rate-limited', message: 'Too many requests.', retryAfterMs: 3000 } })
    expect(now()).toBe(Date.now())
    await vi.advanceTimersByTimeAsync(1000)
    expect(now()).toBe(Date.now())
    w.unmount()
  })
})

// The freshness note's wrapper, a sibling of the error panel's, feeds the clock the same way.
describe('LiveProvenanceNote', () => {
  it('gives the note the ticking clock only while it has something to age', async () => {
    const w = mountWith(LiveProvenanceNote, t, { props: { provenance: null } })
    const now = () => w.getComponent(ProvenanceNote).props('now')
    const before = now()
    await vi.advanceTimersByTimeAsync(5000)
    expect(now()).toBe(before)
    const fetchedAt = new Date(Date.now() - 60_000).toISOString()
    await w.setProps({ provenance: { source: 'network', fetchedAt, staleReason: null } })
    expect(w.get('[role="status"]').text()).toBe('Fetched 1 min ago.')
    await vi.advanceTimersByTimeAsync(60_000)
    expect(now()).toBe(Date.now())
    expect(w.get('[role="status"]').text()).toBe('Fetched 2 min ago.')
    w.unmount()
  })
})

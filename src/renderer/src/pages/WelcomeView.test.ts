import { beforeEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { sandboxProfile } from '../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../testing/mount'
import WelcomeView from './WelcomeView.vue'

describe('WelcomeView', () => {
  let t: TestApp
  beforeEach(async () => {
    t = setupTestApp()
    await t.router.push('/welcome')
    t.bridge.handle('profiles.activate', () => sandboxProfile(true, false))
  })

  it('starts the sandbox in one click, shows its progress and goes on when ready', async () => {
    const w = mountWith(WelcomeView, t)
    const start = w.findAll('button').find((b) => b.text() === 'Start the sandbox')!
    await start.trigger('click')
    await flushPromises()
    expect(t.bridge.callsOf('profiles.activate')).toEqual([{ id: 'sandbox' }])
    t.bridge.emit('sandbox', {
      state: 'starting',
      message: 'Preparing the sandbox (seeding alpha: 120 of 2600)…',
      progress: { stage: 'seeding', network: 'alpha', done: 120, total: 2600 },
    })
    await flushPromises()
    expect(w.text()).toContain('seeding transactions, 120 of 2,600')
    expect(w.get('progress').attributes('value')).toBe('120')
    expect(w.get('progress').attributes('aria-label')).toBe('Preparing Alpha: seeding transactions, 120 of 2,600')
    expect(start.attributes('disabled')).toBeDefined()
    t.bridge.emit('profiles.changed', [sandboxProfile(true, true)])
    t.bridge.emit('sandbox', { state: 'ready', message: null, progress: null })
    await flushPromises()
    expect(t.router.currentRoute.value.name).toBe('home')
    w.unmount()
  })

  it('shows one bar per network while both prepare, moving while a stage has no count', async () => {
    const w = mountWith(WelcomeView, t)
    await w
      .findAll('button')
      .find((b) => b.text() === 'Start the sandbox')!
      .trigger('click')
    t.bridge.emit('sandbox', {
      state: 'starting',
      message: 'Preparing the sandbox (unpacking beta)…',
      progress: { stage: 'unpacking', network: 'beta' },
      stages: [
        { stage: 'indexing', network: 'alpha', done: 10, total: 40 },
        { stage: 'unpacking', network: 'beta' },
      ],
    })
    await flushPromises()
    const bars = w.findAll('progress')
    expect(bars.map((b) => b.attributes('aria-label'))).toEqual([
      'Preparing Alpha: indexing blocks, 10 of 40',
      'Preparing Beta: unpacking the sample chain…',
    ])
    expect(bars[0]!.attributes('max')).toBe('40')
    // No count: no value, so the bar is indeterminate rather than stuck at zero.
    expect(bars[1]!.attributes('value')).toBeUndefined()
    t.bridge.emit('sandbox', { state: 'failed', message: 'anvil exited with code 1', progress: null, stages: null })
    await flushPromises()
    expect(w.findAll('progress')).toHaveLength(0)
    w.unmount()
  })

  it('explains a sandbox that failed', async () => {
    const w = mountWith(WelcomeView, t)
    await w
      .findAll('button')
      .find((b) => b.text() === 'Start the sandbox')!
      .trigger('click')
    t.bridge.emit('sandbox', { state: 'failed', message: 'anvil exited with code 1', progress: null })
    await flushPromises()
    expect(w.text()).toContain('The sandbox failed: anvil exited with code 1')
    w.unmount()
  })
})

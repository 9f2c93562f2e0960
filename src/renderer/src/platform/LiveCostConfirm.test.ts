import { flushPromises } from '@vue/test-utils'
import { beforeEach, describe, expect, it } from 'vitest'
import { mountWith, setupTestApp, type TestApp } from '../testing/mount'
import { makeLimiter } from '../testing/samples'
import CostConfirm from './LiveCostConfirm.vue'

describe('CostConfirm', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
  })

  it('shows the cost before the work starts, and runs at once when the reserve is not touched', async () => {
    const w = mountWith(CostConfirm, t, { props: { label: 'Refresh all', requests: 12 } })
    t.bridge.emit('limiter', makeLimiter({ leftToday: 900, reserve: 200 }))
    await flushPromises()
    expect(w.text()).toContain('12 requests (1.4 % of the 900 left today)')
    await w.get('button').trigger('click')
    expect(w.emitted('run')).toHaveLength(1)
    expect(document.body.textContent).not.toContain('use the reserve?')
    w.unmount()
  })

  it('asks before cutting into the reserve, and runs only when confirmed', async () => {
    const w = mountWith(CostConfirm, t, { props: { label: 'Check for changes', requests: 30 } })
    t.bridge.emit('limiter', makeLimiter({ leftToday: 220, reserve: 200 }))
    await flushPromises()
    await w.get('button').trigger('click')
    await flushPromises()
    expect(w.emitted('run')).toBeUndefined()
    expect(document.body.textContent).toContain('Check for changes: use the reserve?')
    const runAnyway = [...document.body.querySelectorAll('button')].find((b) => b.textContent === 'Run anyway')!
    runAnyway.click()
    await flushPromises()
    expect(w.emitted('run')).toHaveLength(1)
    w.unmount()
  })

  it('shows a cost that depends on the provider as a range, and asks when its most would cut into the reserve', async () => {
    const w = mountWith(CostConfirm, t, {
      props: { label: 'Check for changes', requests: 5, requestsMax: 29 },
    })
    // 5 leaves 215 (above the reserve of 200); 29 would leave 191.
    t.bridge.emit('limiter', makeLimiter({ leftToday: 220, reserve: 200, billing: 'call-plus-batch' }))
    await flushPromises()
    expect(w.text()).toContain('5–29 units (up to 13.2 % of the 220 left today)')
    await w.get('button').trigger('click')
    await flushPromises()
    expect(w.emitted('run')).toBeUndefined()
    expect(document.body.textContent).toContain('Check for changes: use the reserve?')
    w.unmount()
  })

  it('asks before every run when told to confirm, naming the cost', async () => {
    const w = mountWith(CostConfirm, t, { props: { label: 'Expand', requests: 3, confirm: true } })
    t.bridge.emit('limiter', makeLimiter({ leftToday: 900, reserve: 200 }))
    await flushPromises()
    await w.get('button').trigger('click')
    await flushPromises()
    expect(w.emitted('run')).toBeUndefined()
    expect(document.body.textContent).toContain('This costs 3 requests (0.4 % of the 900 left today).')
    expect(document.body.textContent).not.toContain('use the reserve?')
    const run = [...document.body.querySelectorAll('button')].find((b) => b.textContent === 'Run')!
    run.click()
    await flushPromises()
    expect(w.emitted('run')).toHaveLength(1)
    w.unmount()
  })

  it('says so when the cost cannot be known in advance', () => {
    const w = mountWith(CostConfirm, t, {
      props: {
        label: 'Load all',
        requests: null,
        unknownCost: '1 request per page of 50, until the end; it stops at the reserve',
      },
    })
    expect(w.text()).toContain('1 request per page of 50')
    w.unmount()
  })
})

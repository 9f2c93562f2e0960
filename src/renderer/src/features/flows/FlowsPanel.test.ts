import { flushPromises } from '@vue/test-utils'
import { beforeEach, describe, expect, it } from 'vitest'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { makeLimiter, makePage, ME } from '../../testing/samples'
import { tx } from '../../testing/analysis-samples'
import { useTransactionsStore } from '../transactions'
import FlowsPanel from './FlowsPanel.vue'

// The drawing itself is checked in a real browser (e2e/flow-graph.spec.ts); here, the panel around it.
const B = '0x000000000000000000000000000000000000000b'

describe('FlowsPanel', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
    t.bridge.handle(
      'data.transactions',
      (input) => {
        if (input.cacheOnly) throw new FakeBridgeFailure({ kind: 'not-found', message: 'not cached' })
        return makePage(0, 0, null, { address: input.address, items: [tx(ME, B, { value: '2500000000000000000' })] })
      },
      { cached: true },
    )
    t.bridge.handle('work.cancel', () => ({ cancelled: 0 }))
    t.bridge.handle('watchlists.list', () => [])
  })

  it('lists the addresses, selects one, shows its cost and expands it only once confirmed', async () => {
    await useTransactionsStore().open('alpha', ME)
    const w = mountWith(FlowsPanel, t, { props: { network: 'alpha', address: ME } })
    t.bridge.emit('limiter', makeLimiter({ leftToday: 900, reserve: 200 }))
    await flushPromises()
    expect(w.get('table').text()).toContain('2.5 coin')
    const node = w.findAll('li button').find((b) => b.text().includes('0x0000…000b'))!
    await node.trigger('click')
    expect(node.attributes('aria-pressed')).toBe('true')
    await flushPromises()
    expect(w.text()).toContain('1 request (0.2 % of the 900 left today)')
    const calls = () => t.bridge.callsOf('data.transactions').filter((c) => !(c as { cacheOnly: boolean }).cacheOnly)
    expect(calls()).toHaveLength(1)
    await w
      .findAll('button')
      .find((b) => b.text() === 'Expand')!
      .trigger('click')
    await flushPromises()
    expect(calls()).toHaveLength(1) // asked first
    expect(document.body.textContent).toContain('This costs 1 request')
    ;[...document.body.querySelectorAll('button')].find((b) => b.textContent === 'Run')!.click()
    await flushPromises()
    expect(calls()).toHaveLength(2)
    expect(calls()[1]).toMatchObject({ address: B, priority: 'prefetch' })
    w.unmount()
  })
})

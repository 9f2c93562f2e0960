import { beforeEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import type { BlockView as Block, EntityCost } from '@shared/bridge/entity-types'
import { makeLimiter, sandboxProfile } from '../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../testing/mount'
import { useSessionStore } from '../platform/session-store'
import { useLimiterStore } from '../platform/limiter-store'
import BlockView from './BlockView.vue'

const TX = `0x${'ab'.repeat(32)}`
const cost: EntityCost = {
  requests: 1,
  billing: 'request',
  leftToday: 988,
  percentOfLeft: 0.1,
  reserve: 100,
  crossesReserve: false,
  exceedsLeft: false,
  cached: false,
  upTo: 1,
}
const block = (full: boolean): Block => ({
  network: 'alpha',
  fetchedAt: '2026-11-27T10:00:00.000Z',
  source: 'network',
  final: false,
  cost: { requests: 1, units: 1 },
  number: 570,
  hash: `0x${'01'.repeat(32)}`,
  parentHash: `0x${'02'.repeat(32)}`,
  timestamp: '2026-11-27T09:59:58.000Z',
  miner: `0x${'03'.repeat(20)}`,
  baseFeePerGas: '13606000000',
  gasUsed: '77037',
  gasLimit: '30000000',
  transactionCount: 1,
  transactions: [TX],
  full: full ? [{ hash: TX, from: `0x${'04'.repeat(20)}`, to: null, value: '3000000000000000' }] : null,
})

describe('the block page', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp([{ path: '/block/:network/:number', name: 'block', component: BlockView }])
    useSessionStore().profiles = [sandboxProfile(true, true)]
    useLimiterStore().state = makeLimiter()
    t.bridge.handle('entities.cost', () => cost)
    t.bridge.handle('entities.block', ({ full }) => block(full === true))
  })

  it('reads its header on opening; the transaction objects only at their shown cost', async () => {
    await t.router.push('/block/alpha/570')
    const w = mountWith(BlockView, t)
    await flushPromises()
    expect(t.bridge.callsOf('entities.block')).toEqual([{ network: 'alpha', number: 570, full: false, refresh: false }])
    expect(w.get('h1').text()).toBe('Block 570')
    expect(w.get('dl[aria-label="Block header"]').text()).toContain('77,037 of 30,000,000')
    expect(w.get('dl[aria-label="Block header"]').text()).toContain('13.606 gwei')
    expect(w.find('a[title="Block 569"]').exists()).toBe(true)
    expect(w.get('ol[aria-label="Transactions in this block"]').text()).toContain(TX)
    const load = w.findAll('button').find((b) => b.text().startsWith('Load the transactions'))!
    expect(w.find(`[aria-label^="${load.text()} costs 1 request"]`).exists()).toBe(true)
    await load.trigger('click')
    await flushPromises()
    expect(t.bridge.callsOf('entities.block')).toHaveLength(2)
    expect(w.get('ol[aria-label="Transactions in this block"]').text()).toContain('(contract creation) · 0.003')
    w.unmount()
  })

  it('says what is wrong with a number that is not a block number, asking nothing', async () => {
    await t.router.push('/block/alpha/12abc')
    const w = mountWith(BlockView, t)
    await flushPromises()
    expect(w.get('h1').text()).toBe('Not a block number')
    expect(w.get('[role="alert"]').text()).toContain('“12abc” is not a block number')
    expect(t.bridge.calls).toEqual([])
    w.unmount()
  })
})

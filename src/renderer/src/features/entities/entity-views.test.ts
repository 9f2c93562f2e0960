import { beforeEach, describe, expect, it } from 'vitest'
import { checksumAddress } from '@shared/domain/address'
import { flushPromises } from '@vue/test-utils'
import type { AddressKindView, EntityCost, InternalTransfersView } from '@shared/bridge/entity-types'
import { useLimiterStore } from '../../platform/limiter-store'
import { makeLimiter } from '../../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import AddressKindMark from './AddressKindMark.vue'
import TxInternal from './TxInternal.vue'

const ROUTER = `0x${'bb'.repeat(20)}`
const HASH = `0x${'ab'.repeat(32)}`
const cost = (units: number, upTo = units): EntityCost => ({
  requests: units,
  billing: 'request',
  leftToday: 988,
  percentOfLeft: 0.2,
  reserve: 100,
  crossesReserve: false,
  exceedsLeft: false,
  cached: upTo === 0,
  upTo,
})
const asOf = { network: 'alpha', fetchedAt: '2026-11-27T10:00:00.000Z', final: true }

describe('the address kind mark', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
    useLimiterStore().state = makeLimiter()
  })

  it('shows its cost before the eth_getCode, and the contract with its code size after the click', async () => {
    t.bridge.handle('entities.cost', () => cost(1))
    const kind: AddressKindView = {
      ...asOf,
      source: 'network',
      cost: { requests: 1, units: 1 },
      address: ROUTER,
      kind: 'contract',
      from: 'rpc',
      codeSize: 2345,
      name: null,
      verified: null,
      creator: null,
      creationTx: null,
      proxy: null,
    }
    t.bridge.handle('entities.address', () => kind)
    const w = mountWith(AddressKindMark, t, { props: { network: 'alpha', address: ROUTER } })
    await flushPromises()
    expect(w.text()).toContain('Contract or account?')
    expect(w.find('[aria-label^="Check the address kind costs 1 request"]').exists()).toBe(true)
    expect(t.bridge.callsOf('entities.address')).toEqual([])
    await w.get('button').trigger('click')
    await flushPromises()
    expect(t.bridge.callsOf('entities.address')).toEqual([{ network: 'alpha', address: ROUTER, refresh: false }])
    expect(w.get('[data-testid="address-kind"]').text()).toBe('Contract')
    expect(w.text()).toContain('2,345 bytes of code')
    w.unmount()
  })

  it('shows the service’s word at once, free: name without format characters, creator and creation transaction', async () => {
    t.bridge.handle('entities.cost', () => cost(0))
    t.bridge.handle('entities.address', () => ({
      ...asOf,
      source: 'cache',
      cost: { requests: 0, units: 0 },
      address: ROUTER,
      kind: 'contract',
      from: 'service',
      codeSize: null,
      name: 'Rou\u202Eter',
      verified: true,
      creator: `0x${'cc'.repeat(20)}`,
      creationTx: HASH,
      proxy: null,
    }))
    const w = mountWith(AddressKindMark, t, { props: { network: 'alpha', address: ROUTER } })
    await flushPromises()
    expect(w.text()).not.toContain('Contract or account?')
    expect(w.text()).toContain('Router')
    expect(w.text()).not.toContain('\u202E')
    expect(w.text()).toContain('verified')
    expect(w.find(`a[href$="/address/alpha/${checksumAddress(`0x${'cc'.repeat(20)}`)}"]`).exists()).toBe(true)
    expect(w.find(`a[href$="/tx/alpha/${HASH}"]`).exists()).toBe(true)
    expect(w.text()).toContain(HASH)
    expect(w.get('[role="status"][aria-label="Address kind freshness"]').text()).toMatch(/^From cache, as of /)
    w.unmount()
  })
  it('asks the cost again when more transactions are loaded, and shows the service’s word once it is free', async () => {
    let units = 1
    t.bridge.handle('entities.cost', () => cost(units))
    t.bridge.handle('entities.address', () => ({
      ...asOf,
      source: 'network',
      cost: { requests: 0, units: 0 },
      address: ROUTER,
      kind: 'account',
      from: 'service',
      codeSize: null,
      name: null,
      verified: null,
      creator: null,
      creationTx: null,
      proxy: null,
    }))
    const w = mountWith(AddressKindMark, t, { props: { network: 'alpha', address: ROUTER, recheck: 0 } })
    await flushPromises()
    expect(w.text()).toContain('Contract or account?')
    units = 0
    await w.setProps({ recheck: 1 })
    await flushPromises()
    expect(t.bridge.callsOf('entities.cost')).toHaveLength(2)
    expect(w.get('[data-testid="address-kind"]').text()).toBe('Account')
    expect(w.text()).toContain("the service's word")
    w.unmount()
  })
})

describe('internal transfers of a transaction', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
    useLimiterStore().state = makeLimiter()
  })

  it('says a provider’s learnt refusal in words, at once and for nothing, and offers to ask again', async () => {
    t.bridge.handle('entities.cost', () => cost(0))
    const refused: InternalTransfersView = {
      ...asOf,
      final: false,
      source: 'network',
      cost: { requests: 0, units: 0 },
      hash: HASH,
      dialect: null,
      calls: 0,
      transfers: [],
      refused: 'the provider refuses debug_traceTransaction and trace_transaction ("method not found")',
    }
    t.bridge.handle('entities.internal', () => refused)
    const w = mountWith(TxInternal, t, { props: { network: 'alpha', hash: HASH } })
    await flushPromises()
    expect(w.get('[data-testid="trace-refused"]').text()).toBe(
      'This provider does not give internal transfers: the provider refuses debug_traceTransaction and trace_transaction ("method not found")',
    )
    await w.get('button').trigger('click')
    await flushPromises()
    expect(t.bridge.callsOf('entities.internal')).toEqual([
      { network: 'alpha', hash: HASH, refresh: false },
      { network: 'alpha', hash: HASH, refresh: true },
    ])
    w.unmount()
  })

  it('shows the most a first trace may cost, then the transfers that stayed moved, with exact coin', async () => {
    t.bridge.handle('entities.cost', () => cost(1, 2))
    t.bridge.handle('entities.internal', () => ({
      ...asOf,
      source: 'network',
      cost: { requests: 1, units: 1 },
      hash: HASH,
      dialect: 'callTracer',
      calls: 4,
      transfers: [{ from: ROUTER, to: `0x${'cc'.repeat(20)}`, value: '1000000000000000', kind: 'call', depth: 1 }],
      refused: null,
    }))
    const w = mountWith(TxInternal, t, { props: { network: 'alpha', hash: HASH } })
    await flushPromises()
    expect(w.find('[aria-label^="Trace internal transfers costs 2 requests"]').exists()).toBe(true)
    expect(t.bridge.callsOf('entities.internal')).toEqual([])
    await w.get('button').trigger('click')
    await flushPromises()
    expect(w.text()).toContain('4 calls traced (callTracer) · 1 internal transfer')
    expect(w.get('table[aria-label="Internal transfers"]').text()).toContain('0.001 (1000000000000000 wei)')
    w.unmount()
  })
})

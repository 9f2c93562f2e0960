import { beforeEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import type { EntityCost } from '@shared/bridge/entity-types'
import { useLimiterStore } from '../../platform/limiter-store'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { makeLimiter } from '../../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import ReadContractPanel from './ReadContractPanel.vue'
import { useEntitiesStore } from './entities-store'

const TOKEN = `0x${'dd'.repeat(20)}`
const OWNER = `0x${'ee'.repeat(20)}`
const cost = (units: number): EntityCost => ({
  requests: units,
  billing: 'request',
  leftToday: 988,
  percentOfLeft: 0.1,
  reserve: 100,
  crossesReserve: false,
  exceedsLeft: false,
  cached: false,
  upTo: units,
})
const BALANCE_OF = 'function balanceOf(address owner) view returns (uint256)'

describe('Read contract', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
    useLimiterStore().state = makeLimiter()
    t.bridge.handle('entities.cost', ({ read }) => cost(read === 'proxy' ? 3 : 1))
  })

  it('reads a well-known interface’s view function with typed inputs, its cost first, and shows the decoded answer', async () => {
    t.bridge.handle('entities.functions', () => [
      { signature: BALANCE_OF, name: 'balanceOf', inputs: [{ name: 'owner', type: 'address' }] },
    ])
    t.bridge.handle('entities.readContract', () => ({
      network: 'alpha',
      address: TOKEN,
      function: BALANCE_OF,
      outputs: [{ name: '', type: 'uint256', value: '123456789012345678901234567890' }],
      fetchedAt: '2026-11-27T10:00:00.000Z',
      cost: { requests: 1, units: 1 },
    }))
    const w = mountWith(ReadContractPanel, t, { props: { network: 'alpha', address: TOKEN } })
    await flushPromises()
    expect(w.find('[aria-label^="Read the proxy slots costs 3 requests"]').exists()).toBe(true)
    await w.get('button').trigger('click') // Use ERC-20
    await flushPromises()
    expect(t.bridge.callsOf('entities.functions')).toEqual([{ standard: 'ERC-20' }])
    expect(w.find('[aria-label^="Read costs 1 request"]').exists()).toBe(true)
    await w.get('input:not([type=file])').setValue(OWNER)
    await w
      .findAll('button')
      .find((b) => b.text() === 'Read')!
      .trigger('click')
    await flushPromises()
    expect(t.bridge.callsOf('entities.readContract')).toEqual([
      { network: 'alpha', address: TOKEN, standard: 'ERC-20', fn: BALANCE_OF, args: [OWNER] },
    ])
    expect(w.get('table[aria-label="Decoded answer"]').text()).toContain('123456789012345678901234567890')
    w.unmount()
  })

  it('names what was wrong with a pasted ABI, and keeps an accepted ABI’s events for the logs', async () => {
    t.bridge.handle('entities.functions', (input) => {
      if (input.abi === 'garbage')
        throw new FakeBridgeFailure({ kind: 'invalid-input', message: 'The ABI is not valid JSON.', field: 'abi' })
      return []
    })
    const w = mountWith(ReadContractPanel, t, { props: { network: 'alpha', address: TOKEN } })
    await flushPromises()
    await w.get('select').setValue('abi')
    await w.get('textarea').setValue('garbage')
    await w
      .findAll('button')
      .find((b) => b.text() === 'Use this ABI')!
      .trigger('click')
    await flushPromises()
    expect(w.get('[role="alert"]').text()).toContain('The ABI is not valid JSON.')

    const abi = JSON.stringify([{ type: 'event', name: 'Ping', inputs: [{ name: 'n', type: 'uint256' }] }])
    await w.get('textarea').setValue(abi)
    await w
      .findAll('button')
      .find((b) => b.text() === 'Use this ABI')!
      .trigger('click')
    await flushPromises()
    expect(w.find('[role="alert"]').exists()).toBe(false)
    expect(w.text()).toContain('This ABI has no view functions to read.')
    expect(useEntitiesStore().abis.map((a) => [a.label, a.byTopic.size])).toEqual([['pasted ABI', 1]])
    w.unmount()
  })

  it('shows function names and signatures without their format characters', async () => {
    const hostile = 'function bal\u202Eance\u200BOf(address owner) view returns (uint256)'
    t.bridge.handle('entities.functions', () => [
      { signature: hostile, name: 'bal\u202Eance\u200BOf', inputs: [{ name: 'ow\u2066ner', type: 'address' }] },
    ])
    const w = mountWith(ReadContractPanel, t, { props: { network: 'alpha', address: TOKEN } })
    await flushPromises()
    await w.get('button').trigger('click')
    await flushPromises()
    const option = w.findAll('option').find((o) => o.text().includes('balanceOf'))!
    expect(option.text()).toBe('function balanceOf(address owner) view returns (uint256)')
    expect(option.element.value).toBe(hostile)
    expect(w.text()).toContain('owner (address)')
    expect(w.text()).not.toMatch(/[\u202E\u200B\u2066]/)
    w.unmount()
  })
})

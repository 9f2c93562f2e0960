import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import type { SearchHit } from '@shared/bridge/contract'
import { makeTx } from '@shared/testing/service-samples'
import AddressSearch from './AddressSearch.vue'
import { useSessionStore } from '../../platform/session-store'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { sandboxProfile } from '../../testing/samples'
import { NoteField } from '../notes'

const ADDR = '0x52908400098527886e0f7030069857d2e4169ee7'

describe('the Ctrl+K box searches what is cached', () => {
  let t: TestApp
  beforeEach(async () => {
    vi.useFakeTimers()
    localStorage.clear()
    t = setupTestApp([
      {
        path: '/address/:network/:address/:tab(balances|transactions|counterparties|history)?',
        name: 'address',
        component: { template: '<div />' },
      },
    ])
    useSessionStore().profiles = [sandboxProfile(true, true)]
    await t.router.push('/')
  })
  afterEach(() => vi.useRealTimers())

  const tx = makeTx(5, { method: 'swap' })
  const hits: SearchHit[] = [
    {
      id: `tx|alpha|${tx.hash}`,
      kind: 'transaction',
      network: 'alpha',
      address: ADDR,
      hash: tx.hash,
      title: 'Transaction 0x…',
      detail: 'swap',
      tx,
    },
    {
      id: 'bal|alpha|a',
      kind: 'address',
      network: 'alpha',
      address: ADDR,
      hash: null,
      title: 'Address 0x5290…',
      detail: 'Balances cached',
    },
  ]

  it('asks main (no request to the service) after a pause in typing and lists the hits', async () => {
    t.bridge.handle('search.query', () => ({ hits, cachedItems: 1234 }))
    const w = mountWith(AddressSearch, t)
    await w.get('input').setValue('sw')
    await w.get('input').setValue('swap')
    expect(t.bridge.callsOf('search.query')).toEqual([])
    await vi.advanceTimersByTimeAsync(200)
    await flushPromises()
    expect(t.bridge.callsOf('search.query')).toEqual([{ query: 'swap', limit: 20 }])
    const region = w.get('[aria-label="Cached search results"]')
    expect(region.text()).toContain('2 matches among 1,234 cached items · no request, works offline')
    expect(region.findAll('button.hit').map((b) => b.text())).toEqual([
      expect.stringContaining('Transaction'),
      expect.stringContaining('Address'),
    ])
    w.unmount()
  })

  it('Enter opens the best hit: a transaction from its cached copy, an address in its view', async () => {
    t.bridge.handle('search.query', ({ query }) => ({ hits: query === 'swap' ? hits : hits.slice(1), cachedItems: 2 }))
    t.bridge.handle('notes.list', () => [])
    const w = mountWith(AddressSearch, t)
    await w.get('input').setValue('swap')
    await vi.advanceTimersByTimeAsync(200)
    await flushPromises()
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(document.body.textContent).toContain('Transaction details')
    expect(document.body.textContent).toContain(tx.hash)
    expect(t.router.currentRoute.value.name).toBe('home')
    w.unmount()

    const w2 = mountWith(AddressSearch, t)
    await w2.get('input').setValue('weth')
    await vi.advanceTimersByTimeAsync(200)
    await flushPromises()
    await w2.get('form').trigger('submit')
    await flushPromises()
    expect(t.router.currentRoute.value.fullPath).toBe(
      '/address/alpha/0x52908400098527886E0F7030069857D2E4169EE7/balances',
    )
    w2.unmount()
  })

  it("each hit's address and transaction hash are links to their pages; following one closes the box", async () => {
    t.bridge.handle('search.query', () => ({ hits, cachedItems: 2 }))
    const w = mountWith(AddressSearch, t)
    await w.get('input').setValue('swap')
    await vi.advanceTimersByTimeAsync(200)
    await flushPromises()
    const items = w.get('[aria-label="Cached search results"]').findAll('li')
    expect(items).toHaveLength(2)
    const hrefs = items.map((li) => li.findAll('a').map((a) => a.attributes('href')))
    const addressHref = '/address/alpha/0x52908400098527886E0F7030069857D2E4169EE7'
    expect(hrefs).toEqual([[addressHref, `/tx/alpha/${tx.hash.toLowerCase()}`], [addressHref]])
    // The transaction hit's button still opens the cached copy; the links sit outside it.
    expect(items[0]!.get('button.hit').findAll('a')).toHaveLength(0)
    await items[0]!.get(`a[href="/tx/alpha/${tx.hash.toLowerCase()}"]`).trigger('click')
    await flushPromises()
    expect(t.router.currentRoute.value.fullPath).toBe(`/tx/alpha/${tx.hash.toLowerCase()}`)
    expect(w.find('[aria-label="Cached search results"]').exists()).toBe(false)
    w.unmount()
  })

  it('a note is saved through main and shown; a refusal is explained', async () => {
    let fail = false
    t.bridge.handle('notes.list', () => [])
    t.bridge.handle('notes.set', (input) => {
      if (fail)
        throw new FakeBridgeFailure({
          kind: 'conflict',
          message: 'The notes file belongs to a newer version of Chainscope.',
        })
      return { ...input, key: input.key.toLowerCase(), updatedAt: '2030-01-01T00:00:00.000Z' }
    })
    const w = mountWith(NoteField, t, { props: { kind: 'address', network: 'alpha', target: ADDR } })
    await flushPromises()
    await w.get('button').trigger('click')
    await w.get('textarea').setValue('OTC desk')
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(w.text()).toContain('Note: OTC desk')
    expect(t.bridge.callsOf('notes.set')).toEqual([{ kind: 'address', network: 'alpha', key: ADDR, text: 'OTC desk' }])
    fail = true
    await w.get('button').trigger('click')
    await w.get('form').trigger('submit')
    await flushPromises()
    expect(w.get('[role="alert"]').text()).toBe(
      'The note was not saved: The notes file belongs to a newer version of Chainscope.',
    )
    w.unmount()
  })
})

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { fixtureTransactions } from '../../testing/transaction-fixtures'
import { makePage } from '../../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { TransactionsPanel, useTransactionsStore } from '../transactions'
import { filterPredicate, NO_FILTERS } from './address-filters'

/** "How much" on the Blockscout-written page: the sums above the list, and a token filter's rows. */
const fixture = fixtureTransactions()
const ADDRESS = fixture.address.toLowerCase()
const ARIA = '0x55d536e4d6c1993d8ef2e2a4ef77f02088419420'

/** Each row: the asset's symbol (its contract is a link, checked apart), then the cells. */
const sumRows = (w: ReturnType<typeof mountWith>): string[][] =>
  w
    .findAll('table[aria-label="Sums in and out per asset"] tbody tr')
    .map((tr) => [tr.get('th').element.firstChild!.textContent!.trim(), ...tr.findAll('td').map((c) => c.text())])

describe('sums per asset and a token filter on real-world items', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(2000)
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200)
    const page = makePage(0, 0, null, { address: ADDRESS, items: fixture.items })
    t.bridge.handle('data.transactions', () => page)
    t.bridge.handle('work.cancel', () => ({ cancelled: 0 }))
  })
  afterEach(() => {
    useTransactionsStore().narrowing = null
    useTransactionsStore().narrowAsset = null
    vi.restoreAllMocks()
  })

  it('sums the whole page per asset, coin first, and names the cut transaction', async () => {
    const w = mountWith(TransactionsPanel, t, { props: { network: 'alpha', address: ADDRESS } })
    await useTransactionsStore().open('alpha', ADDRESS)
    await flushPromises()
    // By hand: coin in 13 × 42 + 42.00042 = 588.00042, out 42 (the contract creation), 15
    // transactions; ARIA out 0.03156737370313035 cut to 6 digits on screen.
    expect(w.get('[aria-label="Sums per asset"] h2').text()).toBe('Sums of the 20 loaded transactions')
    expect(sumRows(w)).toEqual([
      ['coin', '588.00042', '42', '546.00042', '15'],
      ['ARIA', '0', '0.031567', '−0.031567', '1'],
    ])
    // The token's contract is a pivot to its page.
    const link = w.get('table[aria-label="Sums in and out per asset"] tbody tr:nth-child(2) th a')
    expect(link.attributes('href')!.toLowerCase()).toBe(`/address/alpha/${ARIA}`)
    expect(w.get('[aria-label="Sums per asset"]').text()).toContain('1 transaction lists only the first token')
    w.unmount()
  })

  it('filtered by a token: the sums of the matching set, rows show the token moved, the chart follows', async () => {
    const w = mountWith(TransactionsPanel, t, { props: { network: 'alpha', address: ADDRESS } })
    const txs = useTransactionsStore()
    await txs.open('alpha', ADDRESS)
    await flushPromises()
    txs.narrowing = filterPredicate(ADDRESS, { ...NO_FILTERS, token: ARIA })
    txs.narrowAsset = ARIA
    await flushPromises()
    expect(w.get('[aria-label="Sums per asset"] h2').text()).toBe('Sums of the 1 matching transaction')
    expect(sumRows(w)).toEqual([
      ['coin', '42', '0', '42', '1'],
      ['ARIA', '0', '0.031567', '−0.031567', '1'],
    ])
    const rows = w.findAll('.scroller [role="row"]')
    expect(rows).toHaveLength(1)
    // The amount column names the token and shows what moved, not the coin's 42.
    expect(w.findAll('[role="columnheader"]').map((h) => h.text())).toContain('ARIA moved')
    const value = rows[0]!.findAll('[role="cell"]')[4]!
    expect(value.text()).toBe('0.031567')
    expect(value.attributes('data-full')).toBe('0.03156737370313035')
    expect(w.get('canvas').attributes('aria-label')).toContain('Activity over time: 1 matching transactions')
    w.unmount()
  })
})

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { transactionsResponseSchema } from '@shared/domain/service-schemas'
import { readFixture } from '@shared/testing/blockscout-fixtures'
import { makePage } from '../../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { useTransactionsStore } from '../transactions'
import BalanceAtPanel from './BalanceAtPanel.vue'
import TransfersPanel from './TransfersPanel.vue'

/** The Blockscout-written items through the page path into the two new views. */
const txFixture = readFixture('transactions')
const ADDRESS = txFixture.address.toLowerCase()

describe('the new views on real-world items', () => {
  let t: TestApp
  const errors: unknown[] = []
  beforeEach(() => {
    t = setupTestApp()
    errors.length = 0
    vi.spyOn(console, 'error').mockImplementation((...args) => errors.push(args))
    vi.spyOn(console, 'warn').mockImplementation((...args) => errors.push(args))
    const parsed = transactionsResponseSchema.parse({
      items: txFixture.items.map((i) => i.item),
      next_page_params: null,
    })
    t.bridge.handle('data.transactions', () =>
      makePage(0, 0, null, { address: ADDRESS, items: parsed.items, unreadable: parsed.unreadable }),
    )
    t.bridge.handle('work.cancel', () => ({ cancelled: 0 }))
    t.bridge.handle('analysis.networks', () => [])
  })
  afterEach(() => vi.restoreAllMocks())

  it('token transfers: the one transfer touching the address, and the cut transaction said plainly', async () => {
    const w = mountWith(TransfersPanel, t, { props: { network: 'alpha', address: ADDRESS } })
    await useTransactionsStore().open('alpha', ADDRESS)
    await flushPromises()
    const rows = w.findAll('table[aria-label="Token transfers"] tbody tr')
    expect(rows).toHaveLength(1)
    expect(rows[0]!.text()).toContain('ARIA')
    expect(rows[0]!.text()).toContain('−0.03156737370313035')
    expect(rows[0]!.text()).toContain('cut')
    expect(w.get('[aria-label="Transfers cut by the service"]').text()).toContain(
      '1 transaction lists only the first token transfers the service sent',
    )
    expect(errors).toEqual([])
    w.unmount()
  })

  it('balance at a date: everything loaded, so complete; the ARIA sent on 2022-10-10 is undone before it', async () => {
    const w = mountWith(BalanceAtPanel, t, { props: { network: 'alpha', address: ADDRESS } })
    await useTransactionsStore().open('alpha', ADDRESS)
    await flushPromises()
    await w.get('input[type="date"]').setValue('2022-10-09')
    await w.get('input[type="date"]').trigger('change')
    await flushPromises()
    expect(w.text()).toContain('Complete: every page of transactions is loaded.')
    expect(w.text()).toContain('1 transaction after that day lists only the first token transfers')
    const table = w.get('table[aria-label="Balances at the end of 2022-10-09 (UTC)"]')
    // Not held today (no balances loaded): 0 today, 0.03156737370313035 before it was sent.
    expect(table.text()).toContain('ARIA')
    expect(table.text()).toContain('0.03156737370313035')
    expect(errors).toEqual([])
    w.unmount()
  })
})

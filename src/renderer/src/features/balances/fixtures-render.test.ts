import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { balancesResponseSchema, transactionsResponseSchema } from '@shared/domain/service-schemas'
import { readFixture } from '@shared/testing/blockscout-fixtures'
import BalancesPanel from './BalancesPanel.vue'
import { TransactionsPanel, TxDetail, useTransactionsStore } from '../transactions'
import { useBalancesStore } from './balances-store'
import { makeBalances, makePage } from '../../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'

/**
 * Every real-world (Blockscout) item through the same path as the app: main's schema reads the
 * page item by item, the bridge carries it, the panels render it.
 */
const txFixture = readFixture('transactions')
const balFixture = readFixture('balances')
const ADDRESS = txFixture.address.toLowerCase()

function txPage(raw: unknown[]) {
  const parsed = transactionsResponseSchema.parse({ items: raw, next_page_params: null })
  return makePage(0, 0, null, { address: ADDRESS, items: parsed.items, unreadable: parsed.unreadable })
}

function balView(raw: unknown[]) {
  const parsed = balancesResponseSchema.parse({ items: raw, next_page_params: null })
  return makeBalances(parsed.items, { address: ADDRESS, unreadable: parsed.unreadable })
}

describe('real-world items render', () => {
  let t: TestApp
  const errors: unknown[] = []
  beforeEach(() => {
    t = setupTestApp()
    errors.length = 0
    // Tall enough that the virtual list renders all 20 rows.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(2000)
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200)
    // happy-dom has no canvas: Chart.js saying so is the test environment, not a rendering error.
    const keep = (args: unknown[]) => !String(args[0]).includes("can't acquire context")
    vi.spyOn(console, 'error').mockImplementation((...args) => keep(args) && errors.push(args))
    vi.spyOn(console, 'warn').mockImplementation((...args) => keep(args) && errors.push(args))
  })
  afterEach(() => vi.restoreAllMocks())

  async function openTxs(raw: unknown[]) {
    t.bridge.handle('data.transactions', () => txPage(raw))
    t.bridge.handle('work.cancel', () => ({ cancelled: 0 }))
    const w = mountWith(TransactionsPanel, t, { props: { network: 'alpha', address: ADDRESS } })
    await useTransactionsStore().open('alpha', ADDRESS)
    await flushPromises()
    return w
  }

  it('lists all 20 transactions, pending as pending, failed as failed', async () => {
    const w = await openTxs(txFixture.items.map((i) => i.item))
    const rows = w.findAll('.scroller [role="row"]')
    expect(rows).toHaveLength(20)
    expect(w.get('[aria-label="Loaded transactions"]').text()).toBe('20 loaded in 1 page · all loaded')
    const byHash = (id: string) => {
      const item = txFixture.items.find((i) => i.id === id)!.item
      const hash = item && typeof item === 'object' && 'hash' in item ? String(item.hash) : ''
      return w.get(`[data-hash="${hash}"]`).text()
    }
    expect(byHash('pending')).toMatch(/^pending/)
    expect(byHash('pending')).toContain('Pending')
    expect(byHash('pending')).not.toContain('Failed')
    expect(byHash('withRawRevertReason')).toContain('Failed: Reverted')
    expect(byHash('base')).toContain('Success')
    expect(byHash('base')).toContain('42')
    expect(errors).toEqual([])
    w.unmount()
  })

  it.each(txFixture.items.map((i) => [i.id, i.item] as const))(
    'detail of %s renders without an error',
    async (id, item) => {
      const tx = transactionsResponseSchema.parse({ items: [item], next_page_params: null }).items[0]!
      const w = mountWith(TxDetail, t, { props: { tx, address: ADDRESS } })
      await flushPromises()
      const text = document.body.textContent ?? ''
      expect(text).toContain(tx.hash)
      if (id === 'pending') {
        expect(text).toContain('pending (not in a block yet)')
        expect(text).not.toContain('Failed')
      }
      if (id === 'withRawRevertReason') expect(text).toContain('Only chairperson can give right to vote.')
      if (id === 'withDecodedRevertReason') expect(text).toContain('SomeCustomError(address addr, uint256 balance)')
      if (id === 'withTokenTransfer') {
        expect(text).toContain('0.03156737370313035')
        expect(text).toContain('#875879856')
        expect(text).toContain('42,000,000')
      }
      expect(errors).toEqual([])
      w.unmount()
    },
  )

  it('an empty address shows one clear empty state, no empty table or chart placeholder', async () => {
    const w = await openTxs([])
    expect(w.text()).toContain('No transactions for this address on this network.')
    expect(w.find('.tx-table').exists()).toBe(false)
    expect(w.text()).not.toContain('chart appears')
    w.unmount()
  })

  it('shows all 16 balances with exact amounts', async () => {
    t.bridge.handle('data.balances', () => balView(balFixture.items.map((i) => i.item)))
    const w = mountWith(BalancesPanel, t, { props: { network: 'alpha', address: ADDRESS, networkLabel: 'Alpha' } })
    const store = useBalancesStore()
    store.hideZero = false
    await store.load('alpha', ADDRESS)
    await flushPromises()
    const rows = w.findAll('table[aria-label="Token balances"] tbody tr')
    expect(rows).toHaveLength(16)
    const text = w.text()
    expect(text).toContain('872,500') // USDC, 6 decimals
    expect(text).toContain('1,169,321.234567891234567891') // 24-digit amount, 18 decimals
    expect(text).toContain('Unnamed token')
    expect(w.find('[data-full="483200961027732618117991942553110860267520"]').exists()).toBe(true)
    expect(errors).toEqual([])
    w.unmount()
  })
})

/** The ways a real service breaks an item. */
const breakage = fc.constantFrom('null', 'number', 'remove', 'shape')
function breakItem(item: unknown, field: string, how: string): unknown {
  if (!item || typeof item !== 'object') throw new Error('not an object')
  const copy: Record<string, unknown> = { ...item }
  if (how === 'null') copy[field] = null
  else if (how === 'number') copy[field] = field === 'nonce' ? 'many' : 42
  else if (how === 'remove') delete copy[field]
  else copy[field] = { unexpected: [field] }
  return copy
}

describe('a broken item in the list (property)', () => {
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(2000)
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200)
  })
  afterEach(() => vi.restoreAllMocks())

  it('every other transaction is shown, the broken one is a marked row and counted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(txFixture.items.length - 1),
        fc.constantFrom('hash', 'from', 'value', 'fee', 'nonce', 'tx_types'),
        breakage,
        async (index, field, how) => {
          const t = setupTestApp()
          const raw = txFixture.items.map((i, k) => (k === index ? breakItem(i.item, field, how) : i.item))
          t.bridge.handle('data.transactions', () => txPage(raw))
          const w = mountWith(TransactionsPanel, t, { props: { network: 'alpha', address: ADDRESS } })
          await useTransactionsStore().open('alpha', ADDRESS)
          await flushPromises()
          const rows = w.findAll('.scroller [role="row"]')
          expect(rows).toHaveLength(20)
          expect(w.findAll('[data-testid="unreadable-row"]')).toHaveLength(1)
          expect(rows[index]!.attributes('data-testid')).toBe('unreadable-row')
          expect(rows[index]!.text()).toContain(field)
          expect(w.get('[aria-label="Loaded transactions"]').text()).toContain('19 loaded, 1 unreadable')
          w.unmount()
        },
      ),
      { numRuns: 25 },
    )
  }, 60_000)

  it('every other balance is shown, the broken one is a marked row and counted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(balFixture.items.length - 1),
        fc.constantFrom('token', 'value'),
        breakage,
        async (index, field, how) => {
          const t = setupTestApp()
          const raw = balFixture.items.map((i, k) => (k === index ? breakItem(i.item, field, how) : i.item))
          t.bridge.handle('data.balances', () => balView(raw))
          const w = mountWith(BalancesPanel, t, {
            props: { network: 'alpha', address: ADDRESS, networkLabel: 'Alpha' },
          })
          const store = useBalancesStore()
          store.hideZero = false
          await store.load('alpha', ADDRESS)
          await flushPromises()
          expect(w.findAll('table[aria-label="Token balances"] tbody tr:not(.unreadable)')).toHaveLength(15)
          expect(w.findAll('[data-testid="unreadable-row"]')).toHaveLength(1)
          expect(w.text()).toContain('15 loaded, 1 unreadable')
          w.unmount()
        },
      ),
      { numRuns: 20 },
    )
  }, 60_000)
})

import { beforeEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { makeBalance, makeBalances, makePage, makeTx, ME } from '../../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { useBalancesStore } from './balances-store'
import { useSettingsStore } from '../settings'
import BalancesPanel from './BalancesPanel.vue'

const UINT256_MAX = (2n ** 256n - 1n).toString()

function rowsText(w: ReturnType<typeof mountWith>): string[][] {
  return w.findAll('table[aria-label="Token balances"] tbody tr').map((tr) => tr.findAll('td').map((td) => td.text()))
}

describe('BalancesPanel', () => {
  let t: TestApp
  beforeEach(() => {
    localStorage.clear()
    t = setupTestApp()
    t.bridge.handle('data.balances', () =>
      makeBalances([
        makeBalance('USDC', '1234567890', '6', { rate: '1.0001' }),
        makeBalance('WETH', '1000000000000000001', '18', { rate: '2451.83', icon: 'https://icons.example/weth.png' }),
        makeBalance('GLD', '42', '0'),
        makeBalance('HUGE', UINT256_MAX, '18'),
        makeBalance('BAD', 'not-a-number', '18'),
        makeBalance('PUNK', '1', null, { type: 'ERC-721', tokenId: '7' }),
        makeBalance('NONE', '0', '6'),
      ]),
    )
  })

  async function mountLoaded() {
    const w = mountWith(BalancesPanel, t, { props: { network: 'alpha', address: ME, networkLabel: 'Alpha' } })
    await useBalancesStore().load('alpha', ME)
    await flushPromises()
    return w
  }

  it('shows exact amounts, fiat values and NFT ids, sorted by value', async () => {
    const w = await mountLoaded()
    const rows = rowsText(w)
    expect(rows.map((r) => r[2])).toEqual(['WETH', 'USDC', 'GLD', 'HUGE', 'PUNK'])
    const byId = Object.fromEntries(rows.map((r) => [r[2], r]))
    expect(byId.WETH![4]).toBe('1.000000000000000001')
    expect(byId.WETH![5]).toBe('$2,451.83')
    expect(byId.USDC![4]).toBe('1,234.56789')
    expect(byId.USDC![5]).toBe('$1,234.69')
    expect(byId.GLD![4]).toBe('42')
    expect(byId.HUGE![4]).toBe(
      '115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457.584007913129639935',
    )
    expect(byId.PUNK![6]).toContain('#7')
    expect(w.text()).toContain('Total $3,686.52')
    w.unmount()
  })

  it('shows zero and unknown balances when asked, without breaking', async () => {
    const w = await mountLoaded()
    expect(w.text()).toContain('2 hidden by the filters')
    await w.get('input[type="checkbox"]').setValue(false)
    const rows = rowsText(w)
    expect(rows.map((r) => r[2])).toContain('BAD')
    expect(rows.find((r) => r[2] === 'BAD')![4]).toBe('unknown')
    w.unmount()
  })

  it('filters by type and sorts by a column header', async () => {
    const w = await mountLoaded()
    await w.get('select').setValue('ERC-721')
    expect(rowsText(w).map((r) => r[2])).toEqual(['PUNK'])
    await w.get('select').setValue('all')
    const symbolHeader = w.findAll('th').find((th) => th.text().startsWith('Symbol'))!
    await symbolHeader.get('button').trigger('click')
    expect(symbolHeader.attributes('aria-sort')).toBe('ascending')
    expect(rowsText(w).map((r) => r[2])).toEqual(['GLD', 'HUGE', 'PUNK', 'USDC', 'WETH'])
    w.unmount()
  })

  it('loads remote icons only when the user allows them', async () => {
    const w = await mountLoaded()
    expect(w.find('img').exists()).toBe(false)
    useSettingsStore().settings = { allowRemoteIcons: true }
    await flushPromises()
    expect(w.get('img').attributes('src')).toBe('https://icons.example/weth.png')
    expect(w.get('img').attributes('referrerpolicy')).toBe('no-referrer')
    w.unmount()
  })

  it('shows skeletons while loading and a clear empty state', async () => {
    let release: () => void = () => {}
    t.bridge.handle('data.balances', () => new Promise((r) => (release = () => r(makeBalances([])))))
    const w = mountWith(BalancesPanel, t, { props: { network: 'alpha', address: ME, networkLabel: 'Alpha' } })
    const loading = useBalancesStore().load('alpha', ME)
    await flushPromises()
    expect(w.find('.skeletons').exists()).toBe(true)
    expect(w.get('.table-box').attributes('aria-busy')).toBe('true')
    release()
    await loading
    await flushPromises()
    expect(w.text()).toContain('This address holds no tokens on Alpha.')
    // One clear empty state: no empty table, no chart panel.
    expect(w.find('table').exists()).toBe(false)
    expect(w.find('.allocation').exists()).toBe(false)
    w.unmount()
  })

  it('marks a saved copy with its time and reason', async () => {
    t.bridge.handle('data.balances', () =>
      makeBalances([makeBalance('USDC', '1', '6')], {
        source: 'snapshot',
        staleReason: 'offline',
        fetchedAt: '2026-01-01T08:00:00.000Z',
      }),
    )
    const w = await mountLoaded()
    const note = w.get('[aria-label="Data freshness"]').text()
    expect(note).toMatch(/^Saved copy as of 2026-01-01 \d\d:00:00/)
    expect(note).toContain('the service cannot be reached')
    w.unmount()
  })

  it('tells a revalidated copy by both times: when fetched, and when the service confirmed no change', async () => {
    t.bridge.handle('data.balances', () =>
      makeBalances([makeBalance('USDC', '1', '6')], {
        source: 'cache',
        staleReason: null,
        fetchedAt: '2026-01-01T08:00:00.000Z',
        checkedAt: '2026-01-01T08:20:00.000Z',
      }),
    )
    const w = await mountLoaded()
    const note = w.get('[aria-label="Data freshness"]').text()
    expect(note).toMatch(/^From cache, as of 2026-01-01 \d\d:00:00 .*; the service confirmed no change .+\.$/)
    expect(note).not.toContain('Saved copy')
    w.unmount()
  })

  describe('the coin as a holding', () => {
    const mountWithCoin = async (coinWei: string) => {
      const w = mountWith(BalancesPanel, t, {
        props: { network: 'alpha', address: ME, networkLabel: 'Alpha', coinWei },
      })
      await useBalancesStore().load('alpha', ME)
      await flushPromises()
      return w
    }
    const coinRow = (w: ReturnType<typeof mountWith>) => rowsText(w).find((r) => r[1]!.startsWith('Alpha coin'))!

    it('without a rate: listed, not valued, and the total says plainly it leaves the coin out', async () => {
      const w = await mountWithCoin('2500000000000000000')
      expect(coinRow(w).slice(1, 6)).toEqual(['Alpha coin (native)no contract', 'coin', 'coin', '2.5', '—'])
      const total = w.get('[aria-label="Holdings total"]').text()
      expect(total).toContain('Total $3,686.52')
      expect(total).toContain('Total excludes coin: no rate known')
      // Reading one costs a request: offered with its cost, never done unasked.
      expect(w.text()).toContain('Read a rate from the newest transactions')
      expect(t.bridge.calls.filter((c) => c.name === 'data.transactions')).toEqual([])
      w.unmount()
    })

    it("with a cached transaction's rate: valued, in the total, and the rate's time said", async () => {
      // Cached pages are read for free; the newest dated item carries the rate.
      const items = [makeTx(0, { exchange_rate: '2000.5' }), makeTx(1, { exchange_rate: '1900' })]
      t.bridge.handle('data.transactions', () => makePage(0, 0, null, { items }), { cached: true })
      const w = await mountWithCoin('2500000000000000000')
      // 2.5 × 2000.5 = 5,001.25; the total 3,686.52 (tokens) + 5,001.25 = 8,687.77, rounded once.
      expect(coinRow(w)[5]).toBe('$5,001.25')
      const total = w.get('[aria-label="Holdings total"]').text()
      expect(total).toContain('Total $8,687.77')
      expect(total).toContain(
        'Includes coin at $2,000.50, rate as of 2026-01-01 00:00 UTC (from its newest transaction)',
      )
      // Only the free cache-only read: no request.
      const reads = t.bridge.calls.filter((c) => c.name === 'data.transactions')
      expect(reads.map((c) => (c.input as { cacheOnly: boolean }).cacheOnly)).toEqual([true])
      expect(w.text()).not.toContain('Read a rate from the newest transactions')
      w.unmount()
    })
  })
})

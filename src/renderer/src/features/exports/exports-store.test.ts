import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { makeBalance, makeBalances, makePage, ME } from '../../testing/samples'
import { setupTestApp, type TestApp } from '../../testing/mount'
import { answerFileChecks } from '../../testing/file-checks'
import { useBalancesStore } from '../balances'
import { useExportsStore } from './exports-store'
import { useTransactionsStore } from '../transactions'

describe('exports store', () => {
  let t: TestApp
  let saved: { name: string; blob: Blob }[]
  let checked: string[]
  beforeEach(() => {
    t = setupTestApp()
    checked = answerFileChecks(t.bridge, 'REFUSED')
    saved = []
    let lastBlob: Blob | null = null
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      lastBlob = b as Blob
      return 'blob:test'
    })
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, blob: lastBlob! })
    })
  })
  afterEach(() => vi.restoreAllMocks())

  it('saves every loaded transaction as CSV, reporting progress', async () => {
    t.bridge.handle('data.transactions', (input) => (input.cursor ? makePage(50, 50, null) : makePage(0, 50, 'p1')))
    const txs = useTransactionsStore()
    await txs.open('alpha', ME)
    await txs.loadMore()
    const store = useExportsStore()
    const seen: number[] = []
    const stop = store.$subscribe(() => {
      if (store.progress) seen.push(store.progress.done)
    })
    expect(await store.exportTransactions('csv')).toBe(true)
    stop()
    expect(saved).toHaveLength(1)
    expect(saved[0]!.name).toMatch(new RegExp(`^transactions-alpha-${ME}-.*\\.csv$`))
    const text = await saved[0]!.blob.text()
    expect(text.trim().split('\r\n')).toHaveLength(101)
    expect(seen.at(-1)).toBe(100)
    expect(store.progress).toBeNull()
    expect(store.message).toMatch(/^Saved transactions-alpha-/)
    // Main was shown exactly the file that was offered.
    expect(checked).toEqual([text])
  })

  it('saves nothing when main refuses the file, and says why', async () => {
    t.bridge.handle('data.balances', () => makeBalances([makeBalance('REFUSED', '1', '6')]))
    await useBalancesStore().load('alpha', ME)
    const store = useExportsStore()
    expect(await store.exportBalances('csv')).toBe(false)
    expect(saved).toEqual([])
    expect(store.message).toMatch(/^Export failed: balances-alpha-.* was not saved: it holds the key\.$/)
    expect(store.lastFile).toBeNull()
  })

  it('saves balances as JSON and says when there is nothing to export', async () => {
    const store = useExportsStore()
    expect(await store.exportBalances('json')).toBe(false)
    expect(store.message).toBe('There are no balances loaded to export.')
    t.bridge.handle('data.balances', () => makeBalances([makeBalance('USDC', '1', '6')]))
    await useBalancesStore().load('alpha', ME)
    expect(await store.exportBalances('json')).toBe(true)
    const json = JSON.parse(await saved[0]!.blob.text()) as { items: unknown[] }
    expect(json.items).toHaveLength(1)
  })
})

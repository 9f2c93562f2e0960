import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { makeTx, ME, party } from '../../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import TxList from './TxList.vue'
import { shortHash } from '@shared/domain/short-hash'
import { UnreadableRow } from './unreadable-row'

describe('TxList', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
    // happy-dom lays nothing out: give the scroller a 440 px viewport (10 rows of 44 px).
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(440)
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1000)
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  const items = Array.from({ length: 200 }, (_, i) => makeTx(i))

  async function scrollTo(w: ReturnType<typeof mountWith>, top: number) {
    const el = w.get('.scroller').element as HTMLElement
    el.scrollTop = top
    el.dispatchEvent(new Event('scroll'))
    await flushPromises()
  }

  it('renders only the visible rows, with row indexes for assistive tech', async () => {
    const w = mountWith(TxList, t, { props: { items, address: ME, hasMore: false, loadingMore: false } })
    await flushPromises()
    const rows = w.findAll('.scroller [role="row"]')
    expect(rows.length).toBeGreaterThan(5)
    expect(rows.length).toBeLessThan(40)
    expect(w.get('[role="table"]').attributes('aria-rowcount')).toBe('201')
    expect(rows[0]!.attributes('aria-rowindex')).toBe('2')
    expect(w.get('.spacer').attributes('style')).toContain(`height: ${200 * 44}px`)
    w.unmount()
  })

  it('shows direction, parties with badges, exact value, fee and status', async () => {
    const special = [
      makeTx(0, {
        to: party('0x3333333333333333333333333333333333333333', {
          name: 'Vault',
          is_contract: true,
          is_verified: true,
        }),
        method: 'deposit',
      }),
      makeTx(1, { status: 'error', result: 'Reverted', value: '1' }),
      makeTx(2, { to: null, created_contract: { hash: '0x4444444444444444444444444444444444444444' } }),
    ]
    const w = mountWith(TxList, t, { props: { items: special, address: ME, hasMore: false, loadingMore: false } })
    await flushPromises()
    const cells = w.findAll('.scroller [role="row"]').map((r) => r.findAll('[role="cell"]').map((c) => c.text()))
    expect(cells[0]![2]).toBe('deposit')
    expect(cells[0]![3]).toMatch(/^Out\s*0x1111…1111\s*→\s*Vault\s*contract\s*verified$/)
    expect(cells[0]![4]).toBe('1.5')
    expect(cells[0]![5]).toBe('0.000021')
    expect(cells[0]![6]).toBe('Success')
    expect(cells[1]![3]).toMatch(/^In\s*0x2222/)
    expect(cells[1]![4]).toBe('<0.000001')
    expect(cells[1]![6]).toBe('Failed: Reverted')
    expect(cells[2]![3]).toContain('new contract 0x4444…4444')
    w.unmount()
  })

  it('asks for the next page as the end scrolls into view, not before', async () => {
    const w = mountWith(TxList, t, { props: { items, address: ME, hasMore: true, loadingMore: false } })
    await flushPromises()
    expect(w.emitted('needMore')).toBeUndefined()
    await scrollTo(w, 150 * 44)
    expect(w.emitted('needMore')).toBeUndefined()
    await scrollTo(w, 190 * 44)
    expect(w.emitted('needMore')?.length).toBeGreaterThanOrEqual(1)
    w.unmount()
  })

  it('opens the detail from the hash button, named after its visible text, the full hash as its title', async () => {
    const w = mountWith(TxList, t, { props: { items, address: ME, hasMore: false, loadingMore: false } })
    await flushPromises()
    const button = w.get(`button[title="${items[0]!.hash}"]`)
    // axe label-content-name-mismatch: the visible text must be part of the accessible name.
    expect(button.attributes('aria-label')).toBe(`Transaction ${button.text()}, open details`)
    expect(button.text()).toBe(`${items[0]!.hash.slice(0, 8)}…${items[0]!.hash.slice(-6)}`)
    await button.trigger('click')
    // Once, with the button as what opened it (the focus goes back there); elsewhere, the row.
    expect(w.emitted('select')).toEqual([[items[0]!.hash, button.element]])
    const row = w.get('.scroller [aria-rowindex="3"]')
    await row.get('[role="cell"]').trigger('click')
    expect(w.emitted('select')?.[1]).toEqual([items[1]!.hash, row.element])
    w.unmount()
  })

  it('shows a pending transaction as pending, with no age, its tooltip saying why', async () => {
    const pending = makeTx(1, { status: null, result: 'pending', block: null, timestamp: null })
    const w = mountWith(TxList, t, {
      props: { items: [items[0]!, pending], address: ME, hasMore: false, loadingMore: false },
    })
    await flushPromises()
    const age = w.get('.scroller [aria-rowindex="3"] [role="cell"]').element
    expect(age.textContent).toBe('pending')
    expect(age.getAttribute('title')).toBe('Not in a block yet')
    expect(age.className).toBe('age')
    w.unmount()
  })

  it('opens an unreadable item from its "show raw" button, once, the button as what opened it', async () => {
    const u = new UnreadableRow({ index: 1, path: 'status', message: 'expected a string', raw: {}, hash: null }, 0)
    const w = mountWith(TxList, t, {
      props: { items: [items[0]!, u, items[2]!], address: ME, hasMore: false, loadingMore: false },
    })
    await flushPromises()
    const button = w.get('[data-testid="unreadable-row"] button')
    expect(button.text()).toBe('show raw')
    await button.trigger('click')
    expect(w.emitted('selectUnreadable')).toEqual([[u.key, button.element]])
    expect(w.emitted('select')).toBeUndefined()
    w.unmount()
  })

  /** The rendered rows' row indexes (aria-rowindex − 2), in document order. */
  const indexes = (w: ReturnType<typeof mountWith>) =>
    w.findAll('.scroller [role="row"]').map((r) => Number(r.attributes('aria-rowindex')) - 2)

  it('while it scrolls, a row keeps its element and rows coming into view take the elements of rows gone; at rest the document is in reading order again', async () => {
    const w = mountWith(TxList, t, { props: { items, address: ME, hasMore: false, loadingMore: false } })
    await flushPromises()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const rest = () => vi.advanceTimersByTimeAsync(250).then(flushPromises)
    // Away from the top, so as many rows are rendered after the next scroll as before it.
    await scrollTo(w, 40 * 44)
    await rest()
    expect(indexes(w)).toEqual([...indexes(w)].sort((a, b) => a - b))
    const byIndex = (i: number) => w.get(`.scroller [aria-rowindex="${i + 2}"]`).element
    const fifty = byIndex(50)
    const elements = new Set(w.findAll('.scroller [role="row"]').map((r) => r.element))
    const texts = new Map(
      w.findAll('.scroller [role="row"]').map((r) => [r.element, r.element.querySelector('button.hash')!.firstChild]),
    )
    expect(w.find('.scroller [aria-rowindex="62"]').exists()).toBe(false)
    await scrollTo(w, 45 * 44)
    // Row 50 is still rendered, in the same element; the new rows are in elements already there.
    expect(byIndex(50)).toBe(fifty)
    for (const r of w.findAll('.scroller [role="row"]')) expect(elements.has(r.element)).toBe(true)
    // A reused element shows its new row's text in the Text nodes it had (changed in place).
    const reused = byIndex(60)
    expect(texts.has(reused)).toBe(true)
    const hashText = reused.querySelector('button.hash')!.firstChild
    expect(hashText).toBe(texts.get(reused))
    expect(hashText!.textContent).toBe(shortHash(items[60]!.hash, 8, 6))
    // Each row is shown at its place in reading order whatever its element's place.
    const shown = w
      .findAll('.scroller [role="row"]')
      .map((r) => [Number(r.attributes('aria-rowindex')) - 2, r.attributes('style')])
    for (const [i, style] of shown) expect(style).toContain(`order: ${i}`)
    expect(indexes(w)).not.toEqual([...indexes(w)].sort((a, b) => a - b))
    // At rest (150 ms after the last scroll event, row-window.ts) the elements are put back in reading order.
    await rest()
    expect(indexes(w)).toEqual([...indexes(w)].sort((a, b) => a - b))
    expect(indexes(w)[0]).toBeLessThanOrEqual(45)
    // Each element kept its row: an element held across the rest still shows the same transaction.
    expect(byIndex(50)).toBe(fifty)
    w.unmount()
  })

  it('keeps the focused row rendered, focused and showing the same transaction while the list scrolls away from it', async () => {
    const w = mountWith(TxList, t, {
      props: { items, address: ME, hasMore: false, loadingMore: false },
      attachTo: document.body,
    })
    await flushPromises()
    const button = w.get(`button[title="${items[3]!.hash}"]`)
    ;(button.element as HTMLElement).focus()
    expect(document.activeElement).toBe(button.element)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    await scrollTo(w, 100 * 44)
    // At rest (150 ms after the last scroll event), too.
    await vi.advanceTimersByTimeAsync(250)
    await flushPromises()
    expect(document.activeElement).toBe(button.element)
    expect(button.attributes('title')).toBe(items[3]!.hash)
    const row = w.get(`.scroller [aria-rowindex="${3 + 2}"]`)
    expect(row.element.contains(button.element)).toBe(true)
    // Out of sight at its own place, not among the rows in view.
    expect(row.attributes('style')).toMatch(/position: absolute/)
    expect(indexes(w).filter((i) => i >= 90 && i <= 110).length).toBeGreaterThan(5)
    // Once the focus leaves the list, its rows are put back in reading order.
    expect(indexes(w)).not.toEqual([...indexes(w)].sort((a, b) => a - b))
    ;(button.element as HTMLElement).blur()
    await flushPromises()
    expect(indexes(w)).toEqual([...indexes(w)].sort((a, b) => a - b))
    w.unmount()
  })

  it('clips a cell (for the ellipsis) only when its text may not fit: long values, long parties', async () => {
    const max = (2n ** 256n - 1n).toString()
    const special = [
      makeTx(0, { value: '1000000000000000000' }),
      makeTx(1, {
        value: max,
        from: party('0x5555555555555555555555555555555555555555', {
          name: 'A very long counterparty name that cannot fit'.repeat(3),
        }),
      }),
      makeTx(2, { value: '1234567890123456789' }),
    ]
    const w = mountWith(TxList, t, { props: { items: special, address: ME, hasMore: false, loadingMore: false } })
    await flushPromises()
    const [plain, extreme, rounded] = w.findAll('.scroller [role="row"]')
    const cells = (row: typeof plain) => row!.findAll('[role="cell"]')
    expect(cells(plain)[4]!.classes()).not.toContain('cut')
    expect(cells(extreme)[4]!.classes()).toContain('cut')
    expect(cells(extreme)[3]!.classes()).toContain('cut')
    // The full value stays in the tooltip and on copy either way.
    expect(cells(extreme)[4]!.attributes('data-full')).toContain('115,792,089')
    expect(cells(extreme)[4]!.attributes('title')).toBe(cells(extreme)[4]!.attributes('data-full'))
    // A rounded value has the exact one as its tooltip; a value shown whole needs none.
    expect(cells(rounded)[4]!.text()).toBe('1.234567')
    expect(cells(rounded)[4]!.attributes('title')).toBe('1.234567890123456789')
    expect(cells(plain)[4]!.attributes('title')).toBeUndefined()
    expect(cells(plain)[4]!.attributes('data-full')).toBe('1')
    w.unmount()
  })

  it('clips a method badge only when the method is too long, and a status cell only for a note that may not fit', async () => {
    const special = [
      makeTx(0, { method: 'transfer' }),
      makeTx(1, { method: 'swapExactTokensForTokensSupportingFeeOnTransferTokens' }),
    ]
    const w = mountWith(TxList, t, { props: { items: special, address: ME, hasMore: false, loadingMore: false } })
    await flushPromises()
    const [short, long] = w.findAll('.scroller [role="row"]').map((r) => r.findAll('[role="cell"]'))
    expect(short![2]!.classes()).not.toContain('cut')
    expect(long![2]!.classes()).toContain('cut')
    expect(long![2]!.attributes('title')).toBe('swapExactTokensForTokensSupportingFeeOnTransferTokens')
    expect(short![2]!.attributes('title')).toBeUndefined()
    for (const cells of [short!, long!]) expect(cells[6]!.classes()).not.toContain('cut')
    w.unmount()
  })

  it("shows this network's notes on transactions, whatever the case of the hash", async () => {
    t.bridge.handle('notes.list', () => [
      { kind: 'tx', network: 'alpha', key: items[1]!.hash.toUpperCase(), text: 'paid the rent', updatedAt: '' },
      { kind: 'tx', network: 'beta', key: items[2]!.hash, text: 'other network', updatedAt: '' },
      { kind: 'address', network: 'alpha', key: items[3]!.hash, text: 'an address note', updatedAt: '' },
    ])
    const w = mountWith(TxList, t, {
      props: { items, address: ME, hasMore: false, loadingMore: false, network: 'alpha' },
    })
    await flushPromises()
    const noted = w.findAll('.scroller [role="row"]').filter((r) => r.find('[title^="Note: "]').exists())
    expect(noted.map((r) => r.attributes('aria-rowindex'))).toEqual(['3'])
    expect(noted[0]!.get('[title^="Note: "]').attributes('title')).toBe('Note: paid the rent')
    // A note saved later shows at once.
    t.bridge.emit('notes.changed', [
      { kind: 'tx', network: 'alpha', key: items[0]!.hash, text: 'first', updatedAt: '' },
    ])
    await flushPromises()
    expect(w.get('.scroller [aria-rowindex="2"] [title^="Note: "]').attributes('title')).toBe('Note: first')
    expect(w.find('.scroller [aria-rowindex="3"] [title^="Note: "]').exists()).toBe(false)
    w.unmount()
  })

  it('shows the right rows after scrolling through more rows than it keeps worked out, and back', async () => {
    const many = Array.from({ length: 1500 }, (_, i) => makeTx(i))
    const w = mountWith(TxList, t, { props: { items: many, address: ME, hasMore: false, loadingMore: false } })
    await flushPromises()
    const shown = () =>
      w
        .findAll('.scroller [role="row"]')
        .map((r) => [Number(r.attributes('aria-rowindex')) - 2, r.get('button.hash').attributes('title')] as const)
    for (let top = 0; top <= 1400 * 44; top += 10 * 44) await scrollTo(w, top)
    for (const [i, hash] of shown()) expect(hash).toBe(many[i]!.hash)
    await scrollTo(w, 0)
    expect(shown()[0]).toEqual([0, many[0]!.hash])
    for (const [i, hash] of shown()) expect(hash).toBe(many[i]!.hash)
    w.unmount()
  })
})

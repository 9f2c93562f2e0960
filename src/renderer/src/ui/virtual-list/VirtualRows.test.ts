import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { Part } from './dom-part'
import type { RowWriter } from './row-block'
import VirtualRows from './VirtualRows.vue'

/** A list of words: the virtual list knows them only through keyAt, contentAt and this writer. */
const words = Array.from({ length: 100 }, (_, i) => `word ${i}`)
const texts = new WeakMap<HTMLElement, Part>()
const writer: RowWriter<string> = {
  rowClass: (w) => (w.endsWith('7') ? 'word sevens' : 'word'),
  same: (a, b) => a === b,
  write(row, w) {
    let cell = texts.get(row)
    if (!cell) {
      cell = new Part('span', '', { role: 'cell' })
      cell.add(new Part('button', '', { type: 'button' }).text('open'))
      row.replaceChildren(cell.el)
      texts.set(row, cell)
    }
    cell.text(w)
  },
}

describe('VirtualRows', () => {
  beforeEach(() => {
    // happy-dom lays nothing out: a 440 px view (10 rows of 44 px).
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(440)
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800)
  })
  afterEach(() => vi.restoreAllMocks())

  const mountList = (count = words.length) =>
    mount(VirtualRows<string>, {
      props: {
        count,
        rowPx: 44,
        overscan: 2,
        keyAt: (i: number) => words[i],
        contentAt: (i: number) => words[i]!,
        writer,
        rowIndexBase: 2,
      },
    })

  it('renders the rows in view and the overscan, written by the caller, styled by its class', async () => {
    const w = mountList()
    await flushPromises()
    const rows = w.findAll('[role="row"]')
    expect(rows.map((r) => r.get('[role="cell"]').text())).toEqual(words.slice(0, 12).map((t) => `${t}open`))
    expect(rows.map((r) => r.attributes('aria-rowindex'))).toEqual(words.slice(0, 12).map((_, i) => String(i + 2)))
    expect(rows[7]!.classes()).toEqual(['word', 'sevens'])
    expect(rows[6]!.classes()).toEqual(['word'])
    expect(w.get('.spacer').attributes('style')).toContain(`height: ${100 * 44}px`)
    expect(w.emitted('width')?.at(-1)).toEqual([800])
    w.unmount()
  })

  it('names the clicked row by index, with its clicked button as the trigger, else the row', async () => {
    const w = mountList()
    await flushPromises()
    const row = w.get('[aria-rowindex="5"]')
    await row.get('button').trigger('click')
    await row.get('[role="cell"]').trigger('click')
    expect(w.emitted('rowClick')).toEqual([
      [3, row.get('button').element],
      [3, row.element],
    ])
    w.unmount()
  })

  it('says which row is last rendered in view as the list scrolls', async () => {
    const w = mountList()
    await flushPromises()
    expect(w.emitted('lastRow')?.at(-1)).toEqual([11])
    const el = w.get('.scroller').element as HTMLElement
    el.scrollTop = 50 * 44
    el.dispatchEvent(new Event('scroll'))
    await flushPromises()
    expect(w.emitted('lastRow')?.at(-1)).toEqual([61])
    expect(w.findAll('[role="row"]').map((r) => Number(r.attributes('aria-rowindex')) - 2)).toContain(50)
    w.unmount()
  })
})

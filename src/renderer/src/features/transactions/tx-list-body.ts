import { styleScopeOf, writeRow, type RowContent } from './tx-row-dom'

/** A rendered row: what it shows (RowContent), the element that shows it (RowPool) and where (CSS). */
export type ListRow = RowContent & { index: number; slot: number; style: string }

/**
 * The transaction list's rows, written straight into its row block (`.window`) rather than
 * through a `v-for`.
 *
 * While the list scrolls, every frame brings about 9 rows: through a template, Vue re-ran the
 * list's render, built a vnode and a memo array for each of the ~26 rendered rows, compared them
 * and patched the rows that changed, all on the main thread in the frame (bench/ui-profile.ts).
 * Here a row element is written only when what it shows differs from what it last showed (`same`),
 * and elements are moved only when the rows' document order asks for it (RowPool: never while
 * scrolling, back into reading order at rest). bench:ui, the two versions in turns on one build
 * each, 6 rounds: scroll p95 0.6-3.1 ms lower with this in every round.
 *
 * The block's element and everything around it stay Vue's (TxList.vue); its transform, which
 * moves with the rows, is set here.
 */
export class TxListBody {
  readonly #block: HTMLElement
  /** The list's scoped-style attribute (data-v-…), which its rows carry too. */
  readonly #scope: string | null
  /** Row elements by slot (RowPool), with the row each shows now. */
  readonly #elements: HTMLElement[] = []
  readonly #shown = new Map<HTMLElement, ListRow>()
  #top: number | null = null

  constructor(block: HTMLElement) {
    this.#block = block
    this.#scope = styleScopeOf(block)
  }

  /** The row an element inside the block belongs to, if it shows one now. */
  rowOf(target: EventTarget | null): { row: ListRow; element: HTMLElement } | null {
    const element = target instanceof Element ? target.closest('[role="row"]') : null
    if (!(element instanceof HTMLElement) || element.parentElement !== this.#block) return null
    const row = this.#shown.get(element)
    return row ? { row, element } : null
  }

  /**
   * Shows `rows`, given in the document order of their elements (RowPool), with the block moved
   * `top` px down the list (where its first row in reading order starts).
   */
  render(rows: readonly ListRow[], top: number): void {
    if (top !== this.#top) {
      this.#top = top
      this.#block.style.transform = `translateY(${top}px)`
    }
    const wanted = rows.map((r) => this.#element(r.slot))
    const keep = new Set(wanted)
    for (const el of [...this.#shown.keys()])
      if (!keep.has(el)) {
        el.remove()
        this.#shown.delete(el)
      }
    // Elements already in the block stay where they are when they are in the order asked for
    // (always while scrolling: only new ones are added, at the end); otherwise they are moved.
    let at = this.#block.firstElementChild
    rows.forEach((r, i) => {
      const el = wanted[i]!
      this.#write(el, r)
      if (el === at) at = at.nextElementSibling
      else this.#block.insertBefore(el, at)
    })
  }

  /** Takes every row out (the list is unmounted or shows another address). */
  clear(): void {
    for (const el of this.#shown.keys()) el.remove()
    this.#shown.clear()
    this.#elements.length = 0
  }

  #element(slot: number): HTMLElement {
    let el = this.#elements[slot]
    if (!el) {
      el = document.createElement('div')
      if (this.#scope) el.setAttribute(this.#scope, '')
      el.setAttribute('role', 'row')
      el.className = 'tx-row'
      this.#elements[slot] = el
    }
    return el
  }

  #write(el: HTMLElement, r: ListRow): void {
    const was = this.#shown.get(el)
    this.#shown.set(el, r)
    if (was && same(was, r)) return
    if (!was || was.index !== r.index) el.setAttribute('aria-rowindex', String(r.index + 2))
    if (!was || was.style !== r.style) el.style.cssText = r.style
    if (!was || !was.u !== !r.u) {
      el.className = r.u ? 'tx-row unreadable' : 'tx-row'
      if (r.u) el.setAttribute('data-testid', 'unreadable-row')
      else el.removeAttribute('data-testid')
    }
    const hash = r.tx?.hash ?? null
    if (!was || (was.tx?.hash ?? null) !== hash) {
      if (hash === null) el.removeAttribute('data-hash')
      else el.setAttribute('data-hash', hash)
    }
    writeRow(el, r)
  }
}

/** Whether a row shows exactly what it showed: its place, its item, and what changes without it. */
function same(a: ListRow, b: ListRow): boolean {
  if (a.index !== b.index || a.style !== b.style) return false
  if (a.u || b.u) return a.u === b.u
  return (
    a.v === b.v &&
    a.age === b.age &&
    a.cutAge === b.cutAge &&
    a.cutParties === b.cutParties &&
    a.note === b.note &&
    a.cutStatus === b.cutStatus
  )
}

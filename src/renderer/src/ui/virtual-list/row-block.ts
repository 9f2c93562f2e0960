/** A rendered row: what it shows (`content`), the element that shows it (RowPool's slot) and where (CSS). */
export interface PooledRow<R> {
  index: number
  slot: number
  style: string
  content: R
}

/** How a list's rows are put on the page: the one part of a pooled list that knows what a row shows. */
export interface RowWriter<R> {
  /** The row element's class (the list styles its rows by it). */
  rowClass(content: R): string
  /** Whether two contents show exactly the same: the row element is then not written at all. */
  same(a: R, b: R): boolean
  /** Writes `content` into the row element's cells (and its own data attributes); `was` is what it showed. */
  write(row: HTMLElement, content: R, was: R | undefined): void
}

/**
 * A virtual list's rows, written straight into its row block rather than through a `v-for`.
 *
 * While a long list scrolls, every frame brings about 9 rows: through a template, Vue re-ran the
 * list's render, built a vnode and a memo array for each of the ~26 rendered rows, compared them
 * and patched the rows that changed, all on the main thread in the frame (bench/ui-profile.ts).
 * Here a row element is written only when what it shows differs from what it last showed
 * (`RowWriter.same`), and elements are moved only when the rows' document order asks for it
 * (RowPool: never while scrolling, back into reading order at rest).
 *
 * The block's element and everything around it stay Vue's (VirtualRows.vue); its transform, which
 * moves with the rows, is set here. `rowIndexBase` is the `aria-rowindex` of the list's first row
 * (2 under a header row).
 */
export class RowBlock<R> {
  readonly #block: HTMLElement
  readonly #writer: RowWriter<R>
  readonly #rowIndexBase: number
  /** Row elements by slot (RowPool), with the row each shows now. */
  readonly #elements: HTMLElement[] = []
  readonly #shown = new Map<HTMLElement, PooledRow<R>>()
  #top: number | null = null

  constructor(block: HTMLElement, writer: RowWriter<R>, rowIndexBase = 1) {
    this.#block = block
    this.#writer = writer
    this.#rowIndexBase = rowIndexBase
  }

  /** The row an element inside the block belongs to, if it shows one now. */
  rowOf(target: EventTarget | null): { row: PooledRow<R>; element: HTMLElement } | null {
    const element = target instanceof Element ? target.closest('[role="row"]') : null
    if (!(element instanceof HTMLElement) || element.parentElement !== this.#block) return null
    const row = this.#shown.get(element)
    return row ? { row, element } : null
  }

  /**
   * Shows `rows`, given in the document order of their elements (RowPool), with the block moved
   * `top` px down the list (where its first row in reading order starts).
   */
  render(rows: readonly PooledRow<R>[], top: number): void {
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

  /** Takes every row out (the list is unmounted or shows other items). */
  clear(): void {
    for (const el of this.#shown.keys()) el.remove()
    this.#shown.clear()
    this.#elements.length = 0
  }

  #element(slot: number): HTMLElement {
    let el = this.#elements[slot]
    if (!el) {
      el = document.createElement('div')
      el.setAttribute('role', 'row')
      this.#elements[slot] = el
    }
    return el
  }

  #write(el: HTMLElement, r: PooledRow<R>): void {
    const was = this.#shown.get(el)
    this.#shown.set(el, r)
    if (was && was.index === r.index && was.style === r.style && this.#writer.same(was.content, r.content)) return
    if (!was || was.index !== r.index) el.setAttribute('aria-rowindex', String(r.index + this.#rowIndexBase))
    if (!was || was.style !== r.style) el.style.cssText = r.style
    const cls = this.#writer.rowClass(r.content)
    if (!was || this.#writer.rowClass(was.content) !== cls) el.className = cls
    this.#writer.write(el, r.content, was?.content)
  }
}

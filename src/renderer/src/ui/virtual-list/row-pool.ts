/**
 * Which element (slot) of a virtual list shows which row, and in which order the elements stand in
 * the document. While the list scrolls, a row keeps its element as long as it stays rendered, a
 * row coming into view takes the element of a row gone out of it, and no element moves: the
 * browser then changes the text of elements it already has instead of removing rows and building
 * others (bench:ui: about a fifth of a scrolled frame). The document order is then not the
 * reading order; the list shows the rows in reading order (CSS `order`, with `reading-flow` for
 * the focus order). At rest it asks for `inOrder`: the elements move (each keeping its row) back
 * into reading order, so selection, the accessibility tree and anything that reads the document
 * in order see the rows as they are shown, and no element ever changes rows at rest.
 */
export interface PoolPlan {
  /** The element of each row given, by the row's place in reading order. */
  slots: number[]
  /** The rows' places (in reading order) in the order their elements stand in the document. */
  order: number[]
}

export class RowPool {
  /** The element of each row rendered now, by the row's key. */
  #slotOf = new Map<string, number>()
  /** The elements rendered now, in document order. */
  #order: number[] = []
  #nextSlot = 0

  /** Elements and document order for `keys`: the rows to render, in reading order. */
  assign(keys: readonly string[], inOrder = false): PoolPlan {
    const slots: number[] = []
    const placeOf = new Map<number, number>()
    const kept = new Map<string, number>()
    keys.forEach((k, i) => {
      const slot = this.#slotOf.get(k)
      if (slot === undefined || kept.has(k)) return
      kept.set(k, slot)
      slots[i] = slot
      placeOf.set(slot, i)
    })
    // Rows coming into view take the elements left free, in document order; then new ones. A key
    // given twice (it should not be) gets an element of its own, not its twin's.
    const free = this.#order.filter((s) => !placeOf.has(s))
    const added: number[] = []
    let f = 0
    keys.forEach((k, i) => {
      if (slots[i] !== undefined) return
      let slot = free[f++]
      if (slot === undefined) {
        slot = this.#nextSlot++
        added.push(slot)
      }
      slots[i] = slot
      placeOf.set(slot, i)
      if (!kept.has(k)) kept.set(k, slot)
    })
    const order = inOrder
      ? keys.map((_, i) => i)
      : [...this.#order.filter((s) => placeOf.has(s)), ...added].map((s) => placeOf.get(s)!)
    this.#order = order.map((i) => slots[i]!)
    this.#slotOf = kept
    return { slots, order }
  }

  /** Forgets every row and element (another list is shown). */
  clear(): void {
    this.#slotOf.clear()
    this.#order = []
  }
}

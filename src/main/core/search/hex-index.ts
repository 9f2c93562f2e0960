/**
 * Hashes and addresses of the cached search, found by whole word or by prefix from
 * `minPrefix` hex digits on. Every prefix search starts with the same number of digits, so
 * the words are grouped by that many digits: a search looks at one group (a few words among
 * hundreds of thousands), and adding, removing and rebuilding are one map operation a word.
 * Rebuilding from the items is so cheap (a few tenths of a second for 100,000 transactions)
 * that nothing of it is saved between runs, unlike a MiniSearch index of the same words,
 * whose saved form took seconds to load.
 */
export class HexIndex {
  readonly #groupLength: number
  /** Word → the item holding it, or the items when several do (most hashes have one). */
  readonly #items = new Map<string, string | Set<string>>()
  /** First `0x` + minPrefix digits → the words starting so. */
  readonly #groups = new Map<string, Set<string>>()

  constructor(minPrefix: number) {
    this.#groupLength = 2 + minPrefix
  }

  add(id: string, words: readonly string[]): void {
    for (const word of words) {
      const held = this.#items.get(word)
      if (held === undefined) {
        this.#items.set(word, id)
        if (word.length >= this.#groupLength) {
          const key = word.slice(0, this.#groupLength)
          const group = this.#groups.get(key)
          if (group) group.add(word)
          else this.#groups.set(key, new Set([word]))
        }
      } else if (typeof held === 'string') {
        if (held !== id) this.#items.set(word, new Set([held, id]))
      } else held.add(id)
    }
  }

  remove(id: string, words: readonly string[]): void {
    for (const word of words) {
      const held = this.#items.get(word)
      if (held === undefined) continue
      if (typeof held !== 'string') {
        held.delete(id)
        if (held.size === 1) this.#items.set(word, [...held][0]!)
        continue
      }
      if (held !== id) continue
      this.#items.delete(word)
      const key = word.slice(0, this.#groupLength)
      const group = this.#groups.get(key)
      group?.delete(word)
      if (group?.size === 0) this.#groups.delete(key)
    }
  }

  /**
   * Items matching every word, scored: a whole word counts 1000, a prefix the share of the
   * word it covers (the closer, the better). Best first; equal scores in the order found.
   */
  search(words: readonly string[]): Map<string, number> {
    let scores: Map<string, number> | null = null
    for (const w of words) {
      const mine = new Map<string, number>()
      const credit = (word: string, score: number) => {
        const held = this.#items.get(word)
        for (const id of typeof held === 'string' ? [held] : (held ?? []))
          mine.set(id, Math.max(mine.get(id) ?? 0, score))
      }
      credit(w, 1000)
      if (w.length >= this.#groupLength)
        for (const word of this.#groups.get(w.slice(0, this.#groupLength)) ?? [])
          if (word !== w && word.startsWith(w)) credit(word, w.length / word.length)
      if (scores === null) scores = mine
      else {
        const both = new Map<string, number>()
        for (const [id, s] of scores) {
          const t = mine.get(id)
          if (t !== undefined) both.set(id, s + t)
        }
        scores = both
      }
      if (scores.size === 0) break
    }
    return new Map([...(scores ?? [])].sort((a, b) => b[1] - a[1]))
  }

  get words(): number {
    return this.#items.size
  }
}

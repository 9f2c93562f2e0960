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
  /**
   * By the value of the word's first minPrefix digits after `0x`: the words starting so. A
   * list, not a set: a group holds a handful of words, and a number, not a sliced string,
   * finds it (rebuilding 100,000 transactions' words is a tenth of a second less).
   */
  readonly #groups: (string[] | undefined)[]

  constructor(minPrefix: number) {
    this.#groupLength = 2 + minPrefix
    this.#groups = new Array<string[] | undefined>(16 ** minPrefix)
  }

  /** The group of a word of at least #groupLength characters; -1 when not hex after 0x. */
  #group(word: string): number {
    let key = 0
    for (let i = 2; i < this.#groupLength; i++) {
      const c = word.charCodeAt(i)
      const digit = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1
      if (digit < 0) return -1
      key = key * 16 + digit
    }
    return key
  }

  add(id: string, words: readonly string[]): void {
    for (const word of words) {
      const held = this.#items.get(word)
      if (held === undefined) {
        this.#items.set(word, id)
        const key = word.length >= this.#groupLength ? this.#group(word) : -1
        if (key >= 0) {
          const group = this.#groups[key]
          if (group) group.push(word)
          else this.#groups[key] = [word]
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
      const key = word.length >= this.#groupLength ? this.#group(word) : -1
      const group = key >= 0 ? this.#groups[key] : undefined
      const at = group ? group.indexOf(word) : -1
      if (at < 0) continue
      group!.splice(at, 1)
      if (group!.length === 0) this.#groups[key] = undefined
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
      const key = w.length >= this.#groupLength ? this.#group(w) : -1
      if (key >= 0)
        for (const word of this.#groups[key] ?? [])
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

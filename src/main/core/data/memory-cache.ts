/** A small LRU of answers with the time each was fetched; freshness is decided by the reader. */
export class MemoryCache<V> {
  readonly #entries = new Map<string, { value: V; fetchedAt: number }>()
  readonly #max: number

  constructor(maxEntries = 2000) {
    this.#max = maxEntries
  }

  get(key: string): { value: V; fetchedAt: number } | undefined {
    const hit = this.#entries.get(key)
    if (!hit) return undefined
    this.#entries.delete(key)
    this.#entries.set(key, hit)
    return hit
  }

  set(key: string, value: V, fetchedAt: number): void {
    this.#entries.delete(key)
    this.#entries.set(key, { value, fetchedAt })
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#max) break
      this.#entries.delete(oldest)
    }
  }

  clear(): void {
    this.#entries.clear()
  }

  get size(): number {
    return this.#entries.size
  }
}

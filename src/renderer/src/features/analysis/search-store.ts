import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { SearchHit } from '@shared/bridge/contract'
import type { BridgeError } from '@shared/bridge/errors'
import { bridge } from '../../platform/bridge'

/**
 * The cached search behind the Ctrl+K box. Main holds the index (it has the cached data);
 * a query costs no request to the service and works offline.
 */
export const useCachedSearchStore = defineStore('cached-search', () => {
  const query = ref('')
  const hits = shallowRef<SearchHit[]>([])
  const cachedItems = ref<number | null>(null)
  const searching = ref(false)
  const error = ref<BridgeError | null>(null)
  /** A transaction opened from a hit: shown from the cache, whatever the connection. */
  const openTx = shallowRef<SearchHit | null>(null)

  let seq = 0
  async function run(text: string): Promise<void> {
    query.value = text
    const mine = ++seq
    if (text.trim().length < 2) {
      hits.value = []
      searching.value = false
      return
    }
    searching.value = true
    const result = await bridge.invoke('search.query', { query: text.slice(0, 200), limit: 20 })
    if (mine !== seq) return
    searching.value = false
    if (result.ok) {
      hits.value = Array.isArray(result.value.hits) ? result.value.hits : []
      cachedItems.value = result.value.cachedItems
      error.value = null
    } else {
      hits.value = []
      error.value = result.error
    }
  }

  /**
   * Main brings its index up to date at each query; with a large cache the first one reads
   * every snapshot. Asking once with an empty query when the box gets focus does that
   * while the user is still typing.
   */
  let warmed = false
  function warm(): void {
    if (warmed) return
    warmed = true
    void bridge.invoke('search.query', { query: '', limit: 1 }).then((r) => {
      if (r.ok) cachedItems.value = r.value.cachedItems
      else warmed = false
    })
  }

  function clear(): void {
    seq++
    query.value = ''
    hits.value = []
    searching.value = false
  }

  return { query, hits, cachedItems, searching, error, openTx, run, warm, clear }
})

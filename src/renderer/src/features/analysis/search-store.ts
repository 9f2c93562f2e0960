import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { SearchAnswer, SearchHit } from '@shared/bridge/contract'
import { bridge } from '../../platform/bridge'
import { fetched } from '../../platform/fetched'

/**
 * The cached search behind the Ctrl+K box. Main holds the index (it has the cached data);
 * a query costs no request to the service and works offline.
 */
export const useCachedSearchStore = defineStore('cached-search', () => {
  const query = ref('')
  const cachedItems = ref<number | null>(null)
  /** A transaction opened from a hit: shown from the cache, whatever the connection. */
  const openTx = shallowRef<SearchHit | null>(null)
  // Through the fetched-data layer: an answer to an older query than the last one is dropped.
  const answer = fetched<string, SearchAnswer>({
    same: (a, b) => a === b,
    live: (text) => bridge.invoke('search.query', { query: text.slice(0, 200), limit: 20 }),
    onAnswer: (a) => (cachedItems.value = a.cachedItems),
  })
  const hits = computed(() => {
    const a = answer.data.value
    return answer.status.value === 'error' || !a || !Array.isArray(a.hits) ? [] : a.hits
  })
  const searching = computed(() => answer.status.value === 'loading')

  async function run(text: string): Promise<void> {
    query.value = text
    if (text.trim().length < 2) return answer.reset()
    await answer.load(text)
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
    query.value = ''
    answer.reset()
  }

  return { query, hits, cachedItems, searching, error: answer.error, openTx, run, warm, clear }
})

import { ref } from 'vue'
import { useTransactionsStore } from '../transactions'

/** The oldest loaded transaction's time: pages come newest first, so the last dated item. */
function oldestLoadedMs(items: readonly { timestamp: string | null }[]): number | null {
  for (let i = items.length - 1; i >= 0; i--) {
    const t = items[i]!.timestamp
    const ms = typeof t === 'string' ? Date.parse(t) : Number.NaN
    if (!Number.isNaN(ms)) return ms
  }
  return null
}

/**
 * Loads further pages, one request each, until the loaded transactions reach back to a
 * moment, the history ends, an error stops it, or the user does. Requests run as the user's
 * own work: they asked for this answer and saw its cost.
 */
export function useLoadBack() {
  const txs = useTransactionsStore()
  const running = ref(false)
  const pages = ref(0)
  let stop = false

  async function loadBackTo(ms: number): Promise<void> {
    if (running.value) return
    running.value = true
    stop = false
    pages.value = 0
    try {
      while (!stop && txs.nextCursor !== null && (oldestLoadedMs(txs.items) ?? Infinity) > ms) {
        if (!(await txs.loadMore('user'))) break
        pages.value++
      }
    } finally {
      running.value = false
    }
  }

  function cancel(): void {
    stop = true
  }

  return { running, pages, loadBackTo, cancel }
}

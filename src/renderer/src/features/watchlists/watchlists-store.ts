import { defineStore } from 'pinia'
import { computed, ref, shallowReactive } from 'vue'
import type { BridgeCallInput, ExportFile, WatchEntry, Watchlist } from '@shared/bridge/contract'
import type { BridgeError, BridgeResult } from '@shared/bridge/errors'
import { action, type Action } from '../../platform/action'
import { bridge } from '../../platform/bridge'
import { useWatchSummariesStore } from '../balances'

/** Leaving the watchlists cancels their queued refreshes with this scope. */
export const WATCH_SCOPE = 'watchlists-refresh'

export interface RefreshProgress {
  running: boolean
  done: number
  failed: number
  total: number
  cancelled: boolean
  lastError: BridgeError | null
}

/** Watchlists kept by main, and refreshing their entries' balances under main's limiter. */
export const useWatchlistsStore = defineStore('watchlists', () => {
  const summaries = useWatchSummariesStore()
  const lists = ref<Watchlist[]>([])
  const loaded = ref(false)
  const listing = action()
  const selectedId = ref<string | null>(null)
  const refreshing = ref<Record<string, boolean>>({})
  /** Each row's last refresh: its failure is said beside the row's kept summary (docs/decisions/one-failure-line.md). */
  const rowRefresh = shallowReactive(new Map<string, Action>())
  function rowAction(entryId: string): Action {
    let a = rowRefresh.get(entryId)
    if (!a) {
      a = action()
      rowRefresh.set(entryId, a)
    }
    return a
  }
  /** How the row's last refresh failed, and when; null when it did not. */
  function rowFailure(entryId: string): { error: BridgeError; at: number } | null {
    const a = rowRefresh.get(entryId)
    return a?.error.value ? { error: a.error.value, at: a.errorAt.value } : null
  }
  const progress = ref<RefreshProgress>({
    running: false,
    done: 0,
    failed: 0,
    total: 0,
    cancelled: false,
    lastError: null,
  })

  const selected = computed(() => lists.value.find((l) => l.id === selectedId.value) ?? lists.value[0] ?? null)

  bridge.on('watchlists.changed', (next) => {
    if (Array.isArray(next)) lists.value = next
  })

  function replace(list: Watchlist): void {
    const i = lists.value.findIndex((l) => l.id === list.id)
    lists.value = i < 0 ? [...lists.value, list] : lists.value.map((l) => (l.id === list.id ? list : l))
  }

  async function load(): Promise<void> {
    const list = await listing.run(() => bridge.invoke('watchlists.list', {}))
    loaded.value = true
    if (list) lists.value = list
  }

  async function create(name: string): Promise<BridgeResult<Watchlist>> {
    const result = await bridge.invoke('watchlists.create', { name })
    if (result.ok) {
      replace(result.value)
      selectedId.value = result.value.id
    }
    return result
  }

  async function rename(id: string, name: string): Promise<BridgeResult<Watchlist>> {
    const result = await bridge.invoke('watchlists.rename', { id, name })
    if (result.ok) replace(result.value)
    return result
  }

  async function remove(id: string): Promise<BridgeResult<null>> {
    const result = await bridge.invoke('watchlists.delete', { id })
    if (result.ok) {
      lists.value = lists.value.filter((l) => l.id !== id)
      if (selectedId.value === id) selectedId.value = null
    }
    return result
  }

  async function addEntry(
    listId: string,
    entry: BridgeCallInput<'watchlists.addEntry'>['entry'],
  ): Promise<BridgeResult<Watchlist>> {
    const result = await bridge.invoke('watchlists.addEntry', { listId, entry })
    if (result.ok) replace(result.value)
    return result
  }

  /** Adds a pasted list in one write, all or nothing. */
  async function addEntries(
    listId: string,
    entries: BridgeCallInput<'watchlists.addEntries'>['entries'],
  ): Promise<BridgeResult<Watchlist>> {
    const result = await bridge.invoke('watchlists.addEntries', { listId, entries })
    if (result.ok) replace(result.value)
    return result
  }

  async function updateEntry(input: BridgeCallInput<'watchlists.updateEntry'>): Promise<BridgeResult<Watchlist>> {
    const result = await bridge.invoke('watchlists.updateEntry', input)
    if (result.ok) replace(result.value)
    return result
  }

  async function removeEntry(listId: string, entryId: string): Promise<BridgeResult<Watchlist>> {
    const result = await bridge.invoke('watchlists.removeEntry', { listId, entryId })
    if (result.ok) replace(result.value)
    return result
  }

  async function moveEntry(fromListId: string, toListId: string, entryId: string): Promise<BridgeResult<Watchlist[]>> {
    const result = await bridge.invoke('watchlists.moveEntry', { fromListId, toListId, entryId })
    if (result.ok) for (const l of result.value) replace(l)
    return result
  }

  async function importText(
    format: 'json' | 'csv',
    text: string,
    listName?: string,
  ): Promise<BridgeResult<{ lists: number; entries: number }>> {
    const result = await bridge.invoke('watchlists.import', listName ? { format, text, listName } : { format, text })
    if (result.ok) await load()
    return result
  }

  async function exportFile(format: 'json' | 'csv', listId?: string): Promise<BridgeResult<ExportFile>> {
    return bridge.invoke('watchlists.export', listId ? { format, listId } : { format })
  }

  /** Fetches one entry's balances afresh; the summary updates from the answer. */
  async function refreshEntry(entry: WatchEntry): Promise<BridgeResult<unknown>> {
    refreshing.value = { ...refreshing.value, [entry.id]: true }
    const call = bridge.invoke('data.balances', {
      network: entry.network,
      address: entry.address,
      refresh: true,
      priority: 'user',
      scope: WATCH_SCOPE,
    })
    await rowAction(entry.id).run(() => call)
    const result = await call
    refreshing.value = { ...refreshing.value, [entry.id]: false }
    if (result.ok) summaries.record(result.value)
    return result
  }

  let cancelRequested = false

  /**
   * Refreshes every entry of a list. All are handed to main at once (it queues them under the
   * rate and burst limits), a few at a time so cancelling leaves little in flight.
   */
  async function refreshAll(listId: string, concurrency = 4): Promise<void> {
    const list = lists.value.find((l) => l.id === listId)
    if (!list || progress.value.running) return
    cancelRequested = false
    const queue = [...list.entries]
    progress.value = { running: true, done: 0, failed: 0, total: queue.length, cancelled: false, lastError: null }
    const worker = async (): Promise<void> => {
      while (!cancelRequested) {
        const entry = queue.shift()
        if (!entry) return
        const result = await refreshEntry(entry)
        const p = progress.value
        progress.value = result.ok
          ? { ...p, done: p.done + 1 }
          : { ...p, done: p.done + 1, failed: p.failed + 1, lastError: result.error }
        // Out of quota or offline: the rest would fail the same way.
        if (
          !result.ok &&
          (result.error.kind === 'quota-exhausted' || result.error.kind === 'offline' || result.error.kind === 'auth')
        )
          cancelRequested = true
      }
    }
    await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker))
    progress.value = {
      ...progress.value,
      running: false,
      cancelled: cancelRequested && progress.value.done < progress.value.total,
    }
  }

  async function cancelRefresh(): Promise<void> {
    cancelRequested = true
    await bridge.invoke('work.cancel', { scope: WATCH_SCOPE })
  }

  function select(id: string): void {
    selectedId.value = id
  }

  return {
    lists,
    loaded,
    error: listing.error,
    selectedId,
    selected,
    refreshing,
    progress,
    load,
    create,
    rename,
    remove,
    addEntry,
    addEntries,
    updateEntry,
    removeEntry,
    moveEntry,
    importText,
    exportFile,
    refreshEntry,
    rowFailure,
    refreshAll,
    cancelRefresh,
    select,
  }
})

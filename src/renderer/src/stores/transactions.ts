import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { Provenance } from '@shared/bridge/contract'
import type { BridgeError } from '@shared/bridge/errors'
import type { Transaction } from '@shared/domain/service-schemas'
import { UnreadableRow } from '../features/transactions/unreadable-row'
import { bridge } from '../bridge'
import { isFilterOff, matchesFilter, type DirectionFilter, type StatusFilter } from '../lib/tx-view'
import { scopeOf } from './balances'
import { useConnectivityStore } from './connectivity'

export interface LoadAllProgress {
  running: boolean
  pages: number
  rows: number
  /** Why it ended early: cancelled by the user, or the error that stopped it. */
  stopped: 'cancelled' | 'error' | null
}

/**
 * Transactions of the open address, page by page through main's opaque cursors. Items live
 * in a shallowRef: tens of thousands of rows must not become deep reactive proxies.
 */
export const useTransactionsStore = defineStore('transactions', () => {
  const connectivity = useConnectivityStore()
  const target = ref<{ network: string; address: string } | null>(null)
  /** The readable transactions, in list order. */
  const items = shallowRef<Transaction[]>([])
  /** Every row in page order: transactions and the items that could not be read. */
  const entries = shallowRef<(Transaction | UnreadableRow)[]>([])
  /** Items whose hash was already listed: shown once, counted here. */
  const repeated = ref(0)
  const nextCursor = ref<string | null>(null)
  const pages = ref(0)
  /** The oldest answer shown: a list is only as fresh as its stalest page. */
  const provenance = ref<Provenance | null>(null)
  const loadingFirst = ref(false)
  const loadingMore = ref(false)
  const error = ref<BridgeError | null>(null)
  const errorAt = ref(0)
  const loadAllProgress = ref<LoadAllProgress>({ running: false, pages: 0, rows: 0, stopped: null })
  const selectedHash = ref<string | null>(null)

  const directionFilter = ref<DirectionFilter>('all')
  const typeFilter = ref('all')
  const statusFilter = ref<StatusFilter>('all')

  const complete = computed(() => pages.value > 0 && nextCursor.value === null)
  const unreadable = computed(() => entries.value.length - items.value.length)
  /** The rows shown. Unreadable rows stay whatever the filters: what they are is unknown. */
  const filtered = computed(() => {
    const t = target.value
    if (!t) return []
    const f = { direction: directionFilter.value, type: typeFilter.value, status: statusFilter.value }
    return isFilterOff(f) ? entries.value : entries.value.filter((e) => e instanceof UnreadableRow || matchesFilter(e, t.address, f))
  })
  const types = computed(() => {
    const set = new Set<string>()
    for (const tx of items.value) for (const t of tx.tx_types) set.add(t)
    return [...set].sort()
  })
  const selected = computed(() => (selectedHash.value ? (items.value.find((t) => t.hash === selectedHash.value) ?? null) : null))
  /** The unreadable row open in the raw view, by key. */
  const selectedUnreadableKey = ref<string | null>(null)
  const selectedUnreadable = computed(() => {
    const key = selectedUnreadableKey.value
    if (key === null) return null
    for (const e of entries.value) if (e instanceof UnreadableRow && e.key === key) return e
    return null
  })

  let generation = 0
  let seen = new Set<string>()
  let cancelRequested = false
  let pending: Promise<boolean> | null = null

  function scope(): string {
    return target.value ? scopeOf(target.value.network, target.value.address) : 'none'
  }

  function reset(): void {
    generation++
    items.value = []
    entries.value = []
    repeated.value = 0
    selectedUnreadableKey.value = null
    seen = new Set()
    nextCursor.value = null
    pages.value = 0
    provenance.value = null
    error.value = null
    loadingFirst.value = false
    loadingMore.value = false
    selectedHash.value = null
    pending = null
    cancelRequested = false
    loadAllProgress.value = { running: false, pages: 0, rows: 0, stopped: null }
  }

  async function fetchPage(cursor: string | null, refresh: boolean): Promise<boolean> {
    const t = target.value
    if (!t) return false
    const mine = generation
    const result = await bridge.invoke('data.transactions', { network: t.network, address: t.address, cursor, refresh, priority: 'user', scope: scope() })
    if (mine !== generation) return false
    if (!result.ok) {
      // The user cancelled (load-all, leaving the view): nothing went wrong.
      if (result.error.kind === 'cancelled') return false
      error.value = result.error
      errorAt.value = Date.now()
      if (result.error.kind === 'offline') connectivity.markOffline(result.error.message)
      return false
    }
    const page = result.value
    // Main read each item on its own: here they are merged back in page order, and an item
    // whose hash is already listed is shown once and counted.
    const rows: (Transaction | UnreadableRow)[] = [...page.items]
    for (const u of [...page.unreadable].sort((a, b) => a.index - b.index)) rows.splice(Math.min(u.index, rows.length), 0, new UnreadableRow(u, pages.value))
    const freshRows: (Transaction | UnreadableRow)[] = []
    const freshItems: Transaction[] = []
    let dup = 0
    for (const row of rows) {
      const hash = row instanceof UnreadableRow ? row.item.hash : row.hash
      if (hash !== null) {
        if (seen.has(hash)) {
          dup++
          continue
        }
        seen.add(hash)
      }
      freshRows.push(row)
      if (!(row instanceof UnreadableRow)) freshItems.push(row)
    }
    items.value = cursor === null ? freshItems : items.value.concat(freshItems)
    entries.value = cursor === null ? freshRows : entries.value.concat(freshRows)
    repeated.value = (cursor === null ? 0 : repeated.value) + dup
    nextCursor.value = page.nextCursor
    pages.value++
    const older = provenance.value === null || Date.parse(page.fetchedAt) < Date.parse(provenance.value.fetchedAt) || page.staleReason !== null
    if (older) provenance.value = { source: page.source, fetchedAt: page.fetchedAt, staleReason: page.staleReason }
    if (page.source === 'network') connectivity.markOnline()
    else if (page.staleReason === 'offline') connectivity.markOffline('the service cannot be reached')
    error.value = null
    return true
  }

  /** Opens an address: the first page, unless it is already the open one. */
  async function open(network: string, address: string, options: { refresh?: boolean } = {}): Promise<void> {
    const same = target.value?.network === network && target.value.address.toLowerCase() === address.toLowerCase()
    if (same && !options.refresh && (pages.value > 0 || loadingFirst.value)) return
    reset()
    target.value = { network, address }
    loadingFirst.value = true
    await fetchPage(null, options.refresh ?? false)
    loadingFirst.value = false
  }

  /** The next page, if there is one; joins the page already loading. */
  function loadMore(): Promise<boolean> {
    if (pending) return pending
    if (!target.value || loadingFirst.value || nextCursor.value === null) return Promise.resolve(false)
    const mine = generation
    loadingMore.value = true
    const p = fetchPage(nextCursor.value, false).finally(() => {
      if (mine === generation) {
        loadingMore.value = false
        pending = null
      }
    })
    pending = p
    return p
  }

  /** Every remaining page, with progress, until done, cancelled or an error. */
  async function loadAll(): Promise<void> {
    if (loadAllProgress.value.running || !target.value) return
    const mine = generation
    cancelRequested = false
    loadAllProgress.value = { running: true, pages: pages.value, rows: items.value.length, stopped: null }
    while (!cancelRequested && nextCursor.value !== null) {
      const ok = await loadMore()
      if (mine !== generation) return
      loadAllProgress.value = { running: true, pages: pages.value, rows: items.value.length, stopped: null }
      if (!ok) break
    }
    const stopped = cancelRequested ? 'cancelled' : nextCursor.value !== null ? 'error' : null
    loadAllProgress.value = { running: false, pages: pages.value, rows: items.value.length, stopped }
  }

  /** Stops "load all" and drops its queued request in main. */
  async function cancelLoadAll(): Promise<void> {
    if (!loadAllProgress.value.running) return
    cancelRequested = true
    await bridge.invoke('work.cancel', { scope: scope() })
  }

  /** Leaving the address: drop its queued work. */
  async function leave(): Promise<void> {
    if (target.value) await bridge.invoke('work.cancel', { scope: scope() })
  }

  function select(hash: string | null): void {
    selectedHash.value = hash
  }

  function selectUnreadable(key: string | null): void {
    selectedUnreadableKey.value = key
  }

  return {
    target,
    items,
    entries,
    unreadable,
    repeated,
    selectedUnreadable,
    selectUnreadable,
    nextCursor,
    pages,
    provenance,
    loadingFirst,
    loadingMore,
    error,
    errorAt,
    loadAllProgress,
    selectedHash,
    selected,
    directionFilter,
    typeFilter,
    statusFilter,
    complete,
    filtered,
    types,
    open,
    loadMore,
    loadAll,
    cancelLoadAll,
    leave,
    select,
    reset,
  }
})

import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { Priority, Provenance } from '@shared/bridge/contract'
import type { BridgeError } from '@shared/bridge/errors'
import { checkPage, newPagingWalk } from '@shared/domain/paging-guard'
import type { Transaction } from '@shared/domain/service-schemas'
import { bridge } from '../bridge'
import { filterTransactions, type DirectionFilter, type StatusFilter } from '../lib/tx-view'
import { scopeOf } from './balances'
import { useConnectivityStore } from './connectivity'

export interface LoadAllProgress {
  running: boolean
  pages: number
  rows: number
  /**
   * Why it ended early: cancelled by the user, the error that stopped it, the background
   * reserve of the daily quota reached ("Load all" runs as background work until the user
   * says to go on), or the paging guard (`pagingStopped` says why).
   */
  stopped: 'cancelled' | 'error' | 'reserve' | 'guard' | null
}

/**
 * Transactions of the open address, page by page through main's opaque cursors. Items live
 * in a shallowRef: tens of thousands of rows must not become deep reactive proxies.
 */
export const useTransactionsStore = defineStore('transactions', () => {
  const connectivity = useConnectivityStore()
  const target = ref<{ network: string; address: string } | null>(null)
  const items = shallowRef<Transaction[]>([])
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
  /** Why paging stopped before the end of the history (shared/domain/paging-guard.ts), else null. */
  const pagingStopped = ref<string | null>(null)

  const directionFilter = ref<DirectionFilter>('all')
  const typeFilter = ref('all')
  const statusFilter = ref<StatusFilter>('all')

  const complete = computed(() => pages.value > 0 && nextCursor.value === null)
  const filtered = computed(() =>
    target.value ? filterTransactions(items.value, target.value.address, { direction: directionFilter.value, type: typeFilter.value, status: statusFilter.value }) : [],
  )
  const types = computed(() => {
    const set = new Set<string>()
    for (const tx of items.value) if (Array.isArray(tx.tx_types)) for (const t of tx.tx_types) if (typeof t === 'string') set.add(t)
    return [...set].sort()
  })
  const selected = computed(() => (selectedHash.value ? (items.value.find((t) => t.hash === selectedHash.value) ?? null) : null))

  let generation = 0
  let seen = new Set<string>()
  // The same guard as main's, on the cursors this view follows: main's walk restarts after a
  // restart of main; this one lasts as long as the open address.
  let walk = newPagingWalk()
  let cancelRequested = false
  let pending: Promise<boolean> | null = null

  function scope(): string {
    return target.value ? scopeOf(target.value.network, target.value.address) : 'none'
  }

  function reset(): void {
    generation++
    items.value = []
    seen = new Set()
    walk = newPagingWalk()
    pagingStopped.value = null
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

  async function fetchPage(cursor: string | null, refresh: boolean, priority: Priority = 'user'): Promise<boolean> {
    const t = target.value
    if (!t) return false
    const mine = generation
    const result = await bridge.invoke('data.transactions', { network: t.network, address: t.address, cursor, refresh, priority, scope: scope() })
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
    const fresh = (Array.isArray(page.items) ? page.items : []).filter((tx) => {
      if (!tx || typeof tx.hash !== 'string' || seen.has(tx.hash)) return false
      seen.add(tx.hash)
      return true
    })
    items.value = cursor === null ? fresh : items.value.concat(fresh)
    const next = typeof page.nextCursor === 'string' ? page.nextCursor : null
    if (cursor === null) walk = newPagingWalk()
    const stop = typeof page.pagingStopped === 'string' ? page.pagingStopped : checkPage(walk, { cursor, nextCursor: next, itemIds: (Array.isArray(page.items) ? page.items : []).map((tx) => String(tx?.hash)) })
    pagingStopped.value = stop
    nextCursor.value = stop ? null : next
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
  function loadMore(priority: Priority = 'user'): Promise<boolean> {
    if (pending) return pending
    if (!target.value || loadingFirst.value || nextCursor.value === null) return Promise.resolve(false)
    const mine = generation
    loadingMore.value = true
    const p = fetchPage(nextCursor.value, false, priority).finally(() => {
      if (mine === generation) {
        loadingMore.value = false
        pending = null
      }
    })
    pending = p
    return p
  }

  /**
   * Every remaining page, with progress, until done, cancelled, an error or the paging guard.
   * It runs as background work, so it stops where the daily quota's background reserve begins
   * (stopped: 'reserve'); `pastReserve` (the user confirmed) runs it as user work to the end.
   */
  async function loadAll(options: { pastReserve?: boolean } = {}): Promise<void> {
    if (loadAllProgress.value.running || !target.value) return
    const mine = generation
    cancelRequested = false
    const priority: Priority = options.pastReserve ? 'user' : 'background'
    loadAllProgress.value = { running: true, pages: pages.value, rows: items.value.length, stopped: null }
    while (!cancelRequested && nextCursor.value !== null) {
      const ok = await loadMore(priority)
      if (mine !== generation) return
      loadAllProgress.value = { running: true, pages: pages.value, rows: items.value.length, stopped: null }
      if (!ok) break
    }
    const atReserve = nextCursor.value !== null && priority === 'background' && error.value?.kind === 'quota-exhausted'
    const stopped = cancelRequested ? 'cancelled' : atReserve ? 'reserve' : nextCursor.value !== null ? 'error' : pagingStopped.value ? 'guard' : null
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

  return {
    target,
    items,
    nextCursor,
    pages,
    provenance,
    loadingFirst,
    loadingMore,
    error,
    errorAt,
    loadAllProgress,
    pagingStopped,
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

import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { Priority, Provenance } from '@shared/bridge/contract'
import type { BridgeError } from '@shared/bridge/errors'
import { checkPage, newPagingWalk } from '@shared/domain/paging-guard'
import type { Transaction } from '@shared/domain/service-schemas'
import { bridge } from '../../platform/bridge'
import { type DirectionFilter, type StatusFilter, isFilterOff, matchesFilter } from './tx-view'
import { scopeOf } from '../../platform/view-scope'
import { sameAddress } from '@shared/domain/address'
import { useLimiterStore } from '../../platform/limiter-store'
import { UnreadableRow } from './unreadable-row'

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
  /** Why paging stopped before the end of the history (shared/domain/paging-guard.ts), else null. */
  const pagingStopped = ref<string | null>(null)

  const directionFilter = ref<DirectionFilter>('all')
  const typeFilter = ref('all')
  const statusFilter = ref<StatusFilter>('all')
  /**
   * A further narrowing another view sets (by token, counterparty and dates): it applies to
   * the list here and to every view built from `narrowed`. Null: none.
   */
  const narrowing = shallowRef<((tx: Transaction) => boolean) | null>(null)

  const complete = computed(() => pages.value > 0 && nextCursor.value === null)
  const unreadable = computed(() => entries.value.length - items.value.length)
  /** The readable transactions that pass the narrowing (all of them when none is set). */
  const narrowed = computed(() => {
    const n = narrowing.value
    return n ? items.value.filter(n) : items.value
  })
  /** The rows shown. Unreadable rows stay whatever the filters: what they are is unknown. */
  const filtered = computed(() => {
    const t = target.value
    if (!t) return []
    const f = { direction: directionFilter.value, type: typeFilter.value, status: statusFilter.value }
    const n = narrowing.value
    if (isFilterOff(f) && !n) return entries.value
    return entries.value.filter(
      (e) => e instanceof UnreadableRow || ((!n || n(e)) && (isFilterOff(f) || matchesFilter(e, t.address, f))),
    )
  })
  const types = computed(() => {
    const set = new Set<string>()
    for (const tx of items.value) for (const t of tx.tx_types) set.add(t)
    return [...set].sort()
  })
  const selected = computed(() =>
    selectedHash.value ? (items.value.find((t) => t.hash === selectedHash.value) ?? null) : null,
  )
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
    entries.value = []
    repeated.value = 0
    selectedUnreadableKey.value = null
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

  async function fetchPage(
    cursor: string | null,
    refresh: boolean,
    options: { priority?: Priority; cacheOnly?: boolean } = {},
  ): Promise<boolean> {
    const t = target.value
    if (!t) return false
    const mine = generation
    const result = await bridge.invoke('data.transactions', {
      network: t.network,
      address: t.address,
      cursor,
      refresh,
      priority: options.priority ?? 'user',
      scope: scope(),
      cacheOnly: options.cacheOnly ?? false,
    })
    if (mine !== generation) return false
    if (!result.ok) {
      // The user cancelled (load-all, leaving the view): nothing went wrong. Nor did a page
      // that is simply not cached when only cached ones were asked for.
      if (result.error.kind === 'cancelled' || (options.cacheOnly && result.error.kind === 'not-found')) return false
      error.value = result.error
      errorAt.value = Date.now()
      return false
    }
    const page = result.value
    // Main read each item on its own: here they are merged back in page order, and an item
    // whose hash is already listed is shown once and counted.
    const rows: (Transaction | UnreadableRow)[] = [...page.items]
    for (const u of [...page.unreadable].sort((a, b) => a.index - b.index))
      rows.splice(Math.min(u.index, rows.length), 0, new UnreadableRow(u, pages.value))
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
    if (cursor === null) walk = newPagingWalk()
    // Main's guard (paging-guard.ts) judged the page already; the same rule here covers pages
    // that main answered from its cache.
    const stop =
      page.pagingStopped ??
      checkPage(walk, { cursor, nextCursor: page.nextCursor, itemIds: page.items.map((tx) => tx.hash) })
    pagingStopped.value = stop
    nextCursor.value = stop ? null : page.nextCursor
    pages.value++
    const older =
      provenance.value === null ||
      Date.parse(page.fetchedAt) < Date.parse(provenance.value.fetchedAt) ||
      page.staleReason !== null
    if (older)
      provenance.value = {
        source: page.source,
        fetchedAt: page.fetchedAt,
        staleReason: page.staleReason,
        ...(page.checkedAt ? { checkedAt: page.checkedAt } : {}),
      }
    error.value = null
    return true
  }

  /** Opens an address: the first page, unless it is already the open one. */
  async function open(network: string, address: string, options: { refresh?: boolean } = {}): Promise<void> {
    const same = target.value?.network === network && sameAddress(target.value.address, address)
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
    const p = fetchPage(nextCursor.value, false, { priority }).finally(() => {
      if (mine === generation) {
        loadingMore.value = false
        pending = null
      }
    })
    pending = p
    return p
  }

  /**
   * Every further page main has cached (a snapshot of any age), without a request;
   * stops at the first page that is not cached. Answers how many transactions it added.
   */
  function loadCached(): Promise<number> {
    if (pending || loadAllProgress.value.running || !target.value || nextCursor.value === null)
      return Promise.resolve(0)
    const mine = generation
    const before = items.value.length
    const run = async (): Promise<boolean> => {
      while (nextCursor.value !== null && mine === generation)
        if (!(await fetchPage(nextCursor.value, false, { cacheOnly: true }))) break
      return true
    }
    const p = run().finally(() => {
      if (mine === generation) pending = null
    })
    pending = p
    return p.then(() => (mine === generation ? items.value.length - before : 0))
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
    const limiter = useLimiterStore()
    const atReserve = (): boolean =>
      !options.pastReserve && limiter.state !== null && limiter.state.leftToday - 1 < limiter.state.reserve
    while (!cancelRequested && nextCursor.value !== null) {
      if (atReserve()) {
        loadAllProgress.value = { running: false, pages: pages.value, rows: items.value.length, stopped: 'reserve' }
        return
      }
      const ok = await loadMore(priority)
      if (mine !== generation) return
      loadAllProgress.value = { running: true, pages: pages.value, rows: items.value.length, stopped: null }
      if (!ok) break
    }
    const reserveHit = nextCursor.value !== null && priority === 'background' && error.value?.kind === 'quota-exhausted'
    const stopped = cancelRequested
      ? 'cancelled'
      : reserveHit
        ? 'reserve'
        : nextCursor.value !== null
          ? 'error'
          : pagingStopped.value
            ? 'guard'
            : null
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
    pagingStopped,
    selectedHash,
    selected,
    directionFilter,
    typeFilter,
    statusFilter,
    narrowing,
    narrowed,
    complete,
    filtered,
    types,
    open,
    loadMore,
    loadAll,
    loadCached,
    cancelLoadAll,
    leave,
    select,
    reset,
  }
})

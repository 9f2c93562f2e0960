import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { Priority, TransactionsPage } from '@shared/bridge/contract'
import type { BridgeResult } from '@shared/bridge/errors'
import type { Transaction } from '@shared/domain/service-schemas'
import { bridge } from '../../platform/bridge'
import { type DirectionFilter, type StatusFilter, isFilterOff, matchesFilter } from './tx-view'
import { scopeOf } from '../../platform/view-scope'
import { sameAddress } from '@shared/domain/address'
import { useLimiterStore } from '../../platform/limiter-store'
import { UnreadableRow } from './unreadable-row'
import { fetched } from '../../platform/fetched'
import { readCachedPages } from '../../platform/cached-page'
import { emptyList, refreshedFirst, withPage, type TxList } from './tx-pages'

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

const EMPTY = emptyList()

type Target = { network: string; address: string }
const sameTarget = (a: Target, b: Target): boolean => a.network === b.network && sameAddress(a.address, b.address)
const NO_LOAD_ALL: LoadAllProgress = { running: false, pages: 0, rows: 0, stopped: null }

/** One page of an address, by main's opaque cursor; the answer is placed by the cursor asked for. */
async function readPage(
  t: Target,
  page: { cursor: string | null; refresh?: boolean; priority?: Priority; cacheOnly?: boolean },
): Promise<BridgeResult<TransactionsPage>> {
  const r = await bridge.invoke('data.transactions', {
    network: t.network,
    address: t.address,
    cursor: page.cursor,
    refresh: page.refresh ?? false,
    priority: page.priority ?? 'user',
    scope: scopeOf(t.network, t.address),
    cacheOnly: page.cacheOnly ?? false,
  })
  return r.ok ? { ok: true, value: { ...r.value, cursor: page.cursor } } : r
}

/** Every page main keeps of an address, of any age, without a request; null when none. */
async function readCachedList(t: Target): Promise<TxList | null> {
  const pages = await readCachedPages(t.network, t.address)
  return pages.length === 0 ? null : pages.reduce(withPage, emptyList())
}

/**
 * Transactions of the open address, page by page through main's opaque cursors, read through
 * the fetched-data layer: every page main keeps is shown at once with its time, the first page
 * is asked live behind it, and a failure leaves the kept pages on screen. Items live in a
 * shallowRef: tens of thousands of rows must not become deep reactive proxies.
 */
export const useTransactionsStore = defineStore('transactions', () => {
  const q = fetched<Target, TxList>({
    same: sameTarget,
    cached: readCachedList,
    live: async (t, { refresh, shown }) => {
      const r = await readPage(t, { cursor: null, refresh })
      return r.ok ? { ok: true, value: refreshedFirst(shown, r.value) } : r
    },
    provenance: (l) => l.provenance,
    scope: (t) => scopeOf(t.network, t.address),
  })
  const list = computed(() => q.data.value ?? EMPTY)
  const items = computed(() => list.value.items)
  const entries = computed(() => list.value.entries)
  const repeated = computed(() => list.value.repeated)
  const nextCursor = computed(() => list.value.nextCursor)
  const pages = computed(() => list.value.pages)
  const provenance = computed(() => list.value.provenance)
  const pagingStopped = computed(() => list.value.pagingStopped)
  /** The first answer is on its way and nothing is shown yet. */
  const loadingFirst = computed(() => q.status.value === 'loading' && q.data.value === null)
  const loadingMore = ref(false)
  const loadAllProgress = ref<LoadAllProgress>({ ...NO_LOAD_ALL })
  const selectedHash = ref<string | null>(null)

  const directionFilter = ref<DirectionFilter>('all')
  const typeFilter = ref('all')
  const statusFilter = ref<StatusFilter>('all')
  /**
   * A further narrowing another view sets (by token, counterparty and dates): it applies to
   * the list here and to every view built from `narrowed`. Null: none.
   */
  const narrowing = shallowRef<((tx: Transaction) => boolean) | null>(null)
  /** The asset the narrowing keeps (`NATIVE` or a token contract): rows show its amount moved. Null: none. */
  const narrowAsset = ref<string | null>(null)

  const complete = computed(() => pages.value > 0 && nextCursor.value === null)
  const unreadable = computed(() => entries.value.length - items.value.length)
  /** The readable transactions that pass the narrowing (all of them when none is set). */
  const narrowed = computed(() => {
    const n = narrowing.value
    return n ? items.value.filter(n) : items.value
  })
  /** The readable transactions among the rows shown: what sums and the activity chart read. */
  const filteredItems = computed(() =>
    filtered.value === entries.value
      ? items.value
      : filtered.value.filter((e): e is Transaction => !(e instanceof UnreadableRow)),
  )
  /** The rows shown. Unreadable rows stay whatever the filters: what they are is unknown. */
  const filtered = computed(() => {
    const t = q.key.value
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

  let cancelRequested = false
  let pending: Promise<boolean> | null = null

  /** What the user chose for the address shown: selection and load-all progress. */
  function resetChoices(): void {
    selectedUnreadableKey.value = null
    selectedHash.value = null
    pending = null
    loadingMore.value = false
    cancelRequested = false
    loadAllProgress.value = { ...NO_LOAD_ALL }
  }

  function reset(): void {
    q.reset()
    resetChoices()
  }

  /** Opens an address: what main keeps of it at once, then the first page live (unless it is already the open one). */
  function open(network: string, address: string, options: { refresh?: boolean } = {}): Promise<void> {
    const t = { network, address }
    if (!q.key.value || !sameTarget(q.key.value, t)) resetChoices()
    // A refresh starts the list over: a page on its way and "load all" are dropped with it.
    else if (options.refresh) stopPaging()
    return q.load(t, { refresh: options.refresh ?? false, again: false })
  }

  /** What main keeps of an address, shown for free (no live read): for views that cost no requests. */
  function showCached(network: string, address: string): Promise<void> {
    const t = { network, address }
    if (!q.key.value || !sameTarget(q.key.value, t)) resetChoices()
    return q.load(t, { cacheOnly: true, again: false })
  }

  /** Adds the page at `cursor` to the list; a null read (nothing cached) adds nothing, quietly. */
  function addPage(read: (t: Target) => Promise<BridgeResult<TransactionsPage> | null>): Promise<boolean> {
    const t = q.key.value
    if (!t) return Promise.resolve(false)
    return q.extend(
      () => read(t),
      (shown, page: TransactionsPage) => withPage(shown ?? emptyList(), page),
    )
  }

  /** The next page, if there is one; joins the page already loading. */
  function loadMore(priority: Priority = 'user'): Promise<boolean> {
    if (pending) return pending
    const cursor = nextCursor.value
    if (!q.key.value || loadingFirst.value || cursor === null) return Promise.resolve(false)
    const mine = q.ticket()
    loadingMore.value = true
    const p = addPage((t) => readPage(t, { cursor, priority })).finally(() => {
      if (q.current(mine)) {
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
    if (pending || loadAllProgress.value.running || !q.key.value || nextCursor.value === null) return Promise.resolve(0)
    const mine = q.ticket()
    const before = items.value.length
    const run = async (): Promise<boolean> => {
      while (nextCursor.value !== null && q.current(mine)) {
        const cursor = nextCursor.value
        const added = await addPage(async (t) => {
          const r = await readPage(t, { cursor, cacheOnly: true })
          // A page that is simply not cached when only cached ones were asked for: nothing went wrong.
          return !r.ok && r.error.kind === 'not-found' ? null : r
        })
        if (!added) break
      }
      return true
    }
    const p = run().finally(() => {
      if (q.current(mine)) pending = null
    })
    pending = p
    return p.then(() => (q.current(mine) ? items.value.length - before : 0))
  }

  /**
   * Every remaining page, with progress, until done, cancelled, an error or the paging guard.
   * It runs as background work, so it stops where the daily quota's background reserve begins
   * (stopped: 'reserve'); `pastReserve` (the user confirmed) runs it as user work to the end.
   */
  async function loadAll(options: { pastReserve?: boolean } = {}): Promise<void> {
    if (loadAllProgress.value.running || !q.key.value) return
    const mine = q.ticket()
    cancelRequested = false
    const priority: Priority = options.pastReserve ? 'user' : 'background'
    const progress = (running: boolean, stopped: LoadAllProgress['stopped'] = null): void => {
      loadAllProgress.value = { running, pages: pages.value, rows: items.value.length, stopped }
    }
    progress(true)
    const limiter = useLimiterStore()
    const atReserve = (): boolean =>
      !options.pastReserve && limiter.state !== null && limiter.state.leftToday - 1 < limiter.state.reserve
    while (!cancelRequested && nextCursor.value !== null) {
      if (atReserve()) return progress(false, 'reserve')
      const ok = await loadMore(priority)
      if (!q.current(mine)) return
      progress(true)
      if (!ok) break
    }
    const reserveHit =
      nextCursor.value !== null && priority === 'background' && q.error.value?.kind === 'quota-exhausted'
    const stopped = cancelRequested
      ? 'cancelled'
      : reserveHit
        ? 'reserve'
        : nextCursor.value !== null
          ? 'error'
          : pagingStopped.value
            ? 'guard'
            : null
    progress(false, stopped)
  }

  /** Stops "load all" and drops its queued request in main. */
  async function cancelLoadAll(): Promise<void> {
    if (!loadAllProgress.value.running || !q.key.value) return
    cancelRequested = true
    await bridge.invoke('work.cancel', { scope: scopeOf(q.key.value.network, q.key.value.address) })
  }

  function stopPaging(): void {
    if (loadAllProgress.value.running)
      loadAllProgress.value = { ...loadAllProgress.value, running: false, stopped: 'cancelled' }
    pending = null
    loadingMore.value = false
  }

  /** Leaving the address: later answers are dropped and its queued work in main cancelled. */
  async function leave(): Promise<void> {
    stopPaging()
    await q.leave()
  }

  function select(hash: string | null): void {
    selectedHash.value = hash
  }

  function selectUnreadable(key: string | null): void {
    selectedUnreadableKey.value = key
  }

  return {
    target: q.key,
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
    refreshing: q.refreshing,
    fromCache: q.fromCache,
    error: q.error,
    errorAt: q.errorAt,
    errorFrom: q.errorFrom,
    failingSince: q.failingSince,
    fetchState: q.summary,
    loadAllProgress,
    pagingStopped,
    selectedHash,
    selected,
    directionFilter,
    typeFilter,
    statusFilter,
    narrowing,
    narrowAsset,
    narrowed,
    filteredItems,
    complete,
    filtered,
    types,
    open,
    showCached,
    refresh: q.refresh,
    loadMore,
    loadAll,
    loadCached,
    cancelLoadAll,
    leave,
    select,
    reset,
  }
})

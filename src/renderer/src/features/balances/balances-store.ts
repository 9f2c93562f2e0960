import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { BalancesView } from '@shared/bridge/contract'
import { bridge } from '../../platform/bridge'
import {
  allocation,
  filterRows,
  sortRows,
  toBalanceRow,
  totalFiat,
  type BalanceSortKey,
  type SortDir,
} from './balance-rows'
import { useWatchSummariesStore } from './watch-summaries-store'
import { sameAddress } from '@shared/domain/address'
import { scopeOf } from '../../platform/view-scope'
import { fetched } from '../../platform/fetched'

export type { FetchStatus as LoadStatus } from '../../platform/fetched'

type Target = { network: string; address: string }
const sameTarget = (a: Target, b: Target): boolean => a.network === b.network && sameAddress(a.address, b.address)

/** Balances of the open address (through the fetched-data layer), and how the table shows them. */
export const useBalancesStore = defineStore('balances', () => {
  const summaries = useWatchSummariesStore()
  const read = (t: Target, mode: { refresh: boolean; cacheOnly: boolean }) =>
    bridge.invoke('data.balances', { ...t, ...mode, priority: 'user', scope: scopeOf(t.network, t.address) })
  const q = fetched<Target, BalancesView>({
    same: sameTarget,
    cached: async (t) => {
      const r = await read(t, { refresh: false, cacheOnly: true })
      return r.ok ? r.value : null
    },
    live: (t, { refresh }) => read(t, { refresh, cacheOnly: false }),
    provenance: (v) => v,
    scope: (t) => scopeOf(t.network, t.address),
    onAnswer: (v) => summaries.record(v),
  })
  const view = q.data

  const sortKey = ref<BalanceSortKey>('fiat')
  const sortDir = ref<SortDir>('desc')
  const typeFilter = ref('all')
  const hideZero = ref(true)
  const query = ref('')

  const rows = computed(() => (view.value?.items ?? []).map(toBalanceRow))
  /** Items the service sent that could not be read: shown as marked rows with their raw JSON. */
  const unreadable = computed(() => view.value?.unreadable ?? [])
  const types = computed(() => [...new Set(rows.value.map((r) => r.type))].sort())
  const visibleRows = computed(() =>
    sortRows(
      filterRows(rows.value, { type: typeFilter.value, hideZero: hideZero.value, query: query.value }),
      sortKey.value,
      sortDir.value,
    ),
  )
  const hiddenCount = computed(
    () =>
      rows.value.length -
      filterRows(rows.value, { type: typeFilter.value, hideZero: hideZero.value, query: query.value }).length,
  )
  const slices = computed(() => allocation(rows.value))
  const total = computed(() => totalFiat(rows.value))

  function load(network: string, address: string, options: { refresh?: boolean } = {}): Promise<void> {
    return q.load({ network, address }, options)
  }

  function sortBy(key: BalanceSortKey): void {
    if (sortKey.value === key) sortDir.value = sortDir.value === 'asc' ? 'desc' : 'asc'
    else {
      sortKey.value = key
      sortDir.value = key === 'amount' || key === 'fiat' ? 'desc' : 'asc'
    }
  }

  return {
    target: q.key,
    view,
    status: q.status,
    error: q.error,
    errorAt: q.errorAt,
    failingSince: q.failingSince,
    fetchState: q.summary,
    refreshing: q.refreshing,
    fromCache: q.fromCache,
    sortKey,
    sortDir,
    typeFilter,
    hideZero,
    query,
    rows,
    unreadable,
    types,
    visibleRows,
    hiddenCount,
    slices,
    total,
    load,
    leave: q.leave,
    sortBy,
    reset: q.reset,
  }
})

import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { BalancesView } from '@shared/bridge/contract'
import type { BridgeError } from '@shared/bridge/errors'
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

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error'

/** Balances of the open address, and how the table shows them. */
export const useBalancesStore = defineStore('balances', () => {
  const summaries = useWatchSummariesStore()
  const target = ref<{ network: string; address: string } | null>(null)
  const view = shallowRef<BalancesView | null>(null)
  const status = ref<LoadStatus>('idle')
  const error = ref<BridgeError | null>(null)
  const errorAt = ref(0)

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

  let seq = 0
  async function load(network: string, address: string, options: { refresh?: boolean } = {}): Promise<void> {
    const same = target.value?.network === network && sameAddress(target.value.address, address)
    if (!same) {
      view.value = null
      target.value = { network, address }
    }
    const mine = ++seq
    status.value = 'loading'
    const result = await bridge.invoke('data.balances', {
      network,
      address,
      refresh: options.refresh ?? false,
      priority: 'user',
      scope: scopeOf(network, address),
    })
    if (mine !== seq) return
    if (result.ok) {
      view.value = result.value
      status.value = 'ready'
      error.value = null
      summaries.record(result.value)
    } else {
      error.value = result.error
      errorAt.value = Date.now()
      status.value = 'error'
    }
  }

  function sortBy(key: BalanceSortKey): void {
    if (sortKey.value === key) sortDir.value = sortDir.value === 'asc' ? 'desc' : 'asc'
    else {
      sortKey.value = key
      sortDir.value = key === 'amount' || key === 'fiat' ? 'desc' : 'asc'
    }
  }

  function reset(): void {
    seq++
    target.value = null
    view.value = null
    status.value = 'idle'
    error.value = null
  }

  return {
    target,
    view,
    status,
    error,
    errorAt,
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
    sortBy,
    reset,
  }
})

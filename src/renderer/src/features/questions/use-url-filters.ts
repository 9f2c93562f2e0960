import { computed, onBeforeUnmount, watch, type Ref } from 'vue'
import { useRoute, useRouter } from 'vue-router'
import { NATIVE } from '@shared/domain/movements'
import { useAnalysisStore } from '../analysis'
import { useTransactionsStore } from '../transactions'
import { COIN, filterPredicate } from './address-filters'
import { filterQuery, NO_PAGE_FILTERS, onlyTextDiffers, parseFilterQuery, sameQuery } from './filter-query'
import { useQuestionsStore } from './questions-store'
import { warmKeys } from './warm-keys'

/**
 * Keeps the address page's filters in its URL. The URL is read into the stores whenever it
 * changes (opening a link, back, forward, reload); a filter the user changes (here or in the
 * Transactions tab's own selects) becomes a new history entry, so back undoes it. A URL value
 * that is not understood stays in the URL, is left out of the filters and is named in a note
 * until the user changes a filter.
 */
export function useUrlFilters(address: Ref<string | null>): void {
  const route = useRoute()
  const router = useRouter()
  const questions = useQuestionsStore()
  const txs = useTransactionsStore()
  const analysis = useAnalysisStore()
  const fromUrl = computed(() => parseFilterQuery(route.name === 'address' ? route.query : {}))

  watch(
    [fromUrl, address],
    ([parsed, addr], old) => {
      // The Counterparties search text has one holder, the analysis store (its search box).
      const f = { ...parsed.filters, cpText: null }
      questions.problems = parsed.problems
      analysis.query = parsed.filters.cpText ?? ''
      // A key typed in the Counterparties search changes the URL's text alone: the other filters,
      // and the predicate the list is narrowed by, stay the same objects, so the narrowed list and
      // the summary are not worked out again for each key.
      const [was, wasAddr] = old ?? []
      if (was && wasAddr === addr && onlyTextDiffers(filterQuery(parsed.filters), filterQuery(was.filters))) return
      questions.filters = f
      txs.directionFilter = f.direction
      txs.typeFilter = f.kind
      txs.statusFilter = f.status
      txs.narrowing = addr ? filterPredicate(addr, f) : null
      analysis.onlyAsset = f.token === COIN ? NATIVE : f.token
      txs.narrowAsset = analysis.onlyAsset
    },
    { immediate: true },
  )

  const wanted = computed(() =>
    filterQuery({
      ...questions.filters,
      direction: txs.directionFilter,
      kind: txs.typeFilter,
      status: txs.statusFilter,
      cpText: analysis.query === '' ? null : analysis.query,
    }),
  )
  watch(wanted, (next) => {
    const now = filterQuery(fromUrl.value.filters)
    if (route.name !== 'address' || sameQuery(next, now)) return
    const to = { name: 'address', params: route.params, query: next }
    // Each key typed in the Counterparties search would be a step for Back to undo: the URL follows it in place.
    void (onlyTextDiffers(next, now) ? router.replace(to) : router.push(to))
  })

  // Keys for the filters are worked out in idle time as pages arrive; pages are appended, so
  // only the new tail is read (a new first page starts over).
  let stopWarm: (() => number) | null = null
  watch(
    () => [txs.items, address.value] as const,
    ([items, addr], old) => {
      const reached = stopWarm?.() ?? 0
      stopWarm = null
      if (!addr || items.length === 0) return
      const [prevItems, prevAddr] = old ?? [[], null]
      const appended = prevAddr === addr && prevItems.length > 0 && items[0] === prevItems[0]
      stopWarm = warmKeys(items, addr, appended ? Math.min(reached, items.length) : 0)
    },
    { immediate: true },
  )

  // Another page has no address filters: the list is whole again when the address page comes back.
  onBeforeUnmount(() => {
    stopWarm?.()
    txs.narrowing = null
    txs.narrowAsset = null
    analysis.onlyAsset = null
    analysis.query = ''
    questions.filters = { ...NO_PAGE_FILTERS }
    questions.problems = []
  })
}

/** The address page's sharper questions: filters in the URL, token transfers, balance at a date. */
export { default as QuestionFilters } from './QuestionFilters.vue'
export { default as TransfersPanel } from './TransfersPanel.vue'
export { default as BalanceAtPanel } from './BalanceAtPanel.vue'
export { useUrlFilters } from './use-url-filters'
export { useQuestionsStore } from './questions-store'
export {
  COIN,
  filterByQuestions,
  filterPredicate,
  hasFilters,
  NO_FILTERS,
  type AddressFilters,
} from './address-filters'
export { filterQuery, parseFilterQuery, type PageFilters } from './filter-query'
export { balanceAtDay, type BalanceAt } from './balance-at'
export { sortTransfers, transferRows, transfersCsv, type TransferRow, type TransferSort } from './transfer-rows'

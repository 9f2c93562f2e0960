/** The address page's sharper questions: filters in the URL, token transfers, balance at a date. */
export { default as QuestionFilters } from './QuestionFilters.vue'
export { default as TransfersPanel } from './TransfersPanel.vue'
export { default as BalanceAtPanel } from './BalanceAtPanel.vue'
export { useUrlFilters } from './use-url-filters'
export { type AddressFilters } from './address-filters'
export { type PageFilters } from './filter-query'
export { type BalanceAt } from './balance-at'
export { type TransferRow, type TransferSort } from './transfer-rows'

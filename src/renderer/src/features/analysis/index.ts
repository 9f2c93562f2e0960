/**
 * Analyst views of a loaded address: balance history, counterparties, both-networks summary,
 * the cached search over saved data; and the pure history and transfer models flows, questions
 * and reports build on.
 * Other features and pages import this feature only through this file.
 */
export { default as CachedResults } from './CachedResults.vue'
export { useCachedSearchStore } from './search-store'
export {
  balanceHistory,
  type BalanceHistory,
  assetsFromBalances,
  type AssetNow,
  type HistoryPoint,
} from './balance-history'
export { counterparties, CP_TEXT_MAX } from './counterparties'
export { default as LoadedRange } from './LoadedRange.vue'
export { useAnalysisStore } from './analysis-store'
export { sampleExtremes } from './history-sampling'
export { default as BalanceHistoryPanel } from './BalanceHistoryPanel.vue'
export { default as CounterpartiesPanel } from './CounterpartiesPanel.vue'
export { default as NetworksSummary } from './NetworksSummary.vue'

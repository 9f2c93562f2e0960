/**
 * The balances tab, its store, and the last known balance summary a watchlist shows.
 * Other features and pages import this feature only through this file.
 */
export { useBalancesStore } from './balances-store'
export { toBalanceRow } from './balance-rows'
export { summaryText, useWatchSummariesStore } from './watch-summaries-store'
export { default as BalancesPanel } from './BalancesPanel.vue'

/**
 * The transactions tab: its store, the panel, the detail, and the row readings others reuse.
 * Other features and pages import this feature only through this file.
 */
export { default as TxDetail } from './TxDetail.vue'
export { default as TxDetailBody } from './TxDetailBody.vue'
export { useTxPageStore } from './tx-page-store'
export { shortHash, directionOf, DIRECTION_LABEL, methodLabel, partyView, statusLabel } from './tx-view'
export { useTransactionsStore } from './transactions-store'
export { default as TransactionsPanel } from './TransactionsPanel.vue'
export { UnreadableRow } from './unreadable-row'
export { revertReasonView } from './revert-reason'

/** The approvals tab of the address page. */
export { default as ApprovalsPanel } from './ApprovalsPanel.vue'
export { useApprovalsStore } from './approvals-store'

export { default as AddToCaseDialog } from './AddToCaseDialog.vue'
export { default as CasesPanel } from './CasesPanel.vue'
export { useCasesStore } from './cases-store'

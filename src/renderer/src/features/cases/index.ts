/**
 * Cases: the list, the add-to-case dialog, the case's flow graph.
 * Other features and pages import this feature only through this file.
 */
export { default as AddToCaseDialog } from './AddToCaseDialog.vue'
export { default as CasesPanel } from './CasesPanel.vue'
export { useCasesStore } from './cases-store'
export { default as CaseFlowGraph } from './CaseFlowGraph.vue'
export { default as PasteIntoCaseDialog } from './PasteIntoCaseDialog.vue'

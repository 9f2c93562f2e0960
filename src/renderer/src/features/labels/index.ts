/**
 * Address labels: the panel and the store.
 * Other features and pages import this feature only through this file.
 */
export { default as LabelsPanel } from './LabelsPanel.vue'
export { useLabelsStore } from './labels-store'
export { default as LabelEditor } from './LabelEditor.vue'

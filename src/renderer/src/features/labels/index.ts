export { default as LabelsPanel } from './LabelsPanel.vue'
export { useLabelsStore } from './labels-store'
export { default as LabelEditor } from './LabelEditor.vue'

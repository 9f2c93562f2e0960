export { default as LabelsPanel } from './LabelsPanel.vue'
export { useLabelsStore } from './labels-store'

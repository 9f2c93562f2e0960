/**
 * The address report: its HTML, model and drawings, and the download button.
 * Other features and pages import this feature only through this file.
 */
export { type ReportInput, type ReportSubject } from './report-model'
export { default as ExportReportButton } from './ExportReportButton.vue'
export { default as ExportBundleButton } from './ExportBundleButton.vue'
export { default as VerifyBundle } from './VerifyBundle.vue'

/**
 * The app's chrome around every page: header, toasts, quota meter.
 * Other features and pages import this feature only through this file.
 */
export { default as AppHeader } from './AppHeader.vue'
export { default as AppToaster } from './AppToaster.vue'
export { default as QuotaMeter } from './QuotaMeter.vue'

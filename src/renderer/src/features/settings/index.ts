/**
 * Settings the app reads elsewhere (the store), the billing choice and the limit scopes' names.
 * Other features and pages import this feature only through this file.
 */
export { useSettingsStore } from './settings-store'
export { default as BillingSelect } from './BillingSelect.vue'
export { LIMIT_SCOPE_LABELS, scopeBucketLabel } from './limit-scope'

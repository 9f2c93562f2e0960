/**
 * Settings the app reads elsewhere (the store), the billing choice, the limit scopes' names and
 * the sandbox's Stop / Start / Reset.
 * Other features and pages import this feature only through this file.
 */
export { useSettingsStore } from './settings-store'
export { default as BillingSelect } from './BillingSelect.vue'
export { default as SandboxPanel } from './SandboxPanel.vue'
export { LIMIT_SCOPE_LABELS, scopeBucketLabel } from './limit-scope'

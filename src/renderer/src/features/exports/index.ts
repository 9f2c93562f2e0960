/**
 * The export menu (CSV and JSON of balances and transactions).
 * Other features and pages import this feature only through this file.
 */
export { default as ExportMenu } from './ExportMenu.vue'

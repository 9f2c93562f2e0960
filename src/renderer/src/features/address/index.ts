/**
 * The address search box and network switch the header shows.
 * Other features and pages import this feature only through this file.
 */
export { default as AddressSearch } from './AddressSearch.vue'
export { default as NetworkSwitch } from './NetworkSwitch.vue'

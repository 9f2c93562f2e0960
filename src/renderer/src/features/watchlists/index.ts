/**
 * Watchlists: the store, the entries table, the check bar and the add dialog.
 * Other features and pages import this feature only through this file.
 */
export { useWatchlistsStore } from './watchlists-store'
export { watchLabelsOn } from './watch-labels'
export { default as AddToWatchlistDialog } from './AddToWatchlistDialog.vue'
export { default as WatchlistEntries } from './WatchlistEntries.vue'
export { default as WatchCheckBar } from './WatchCheckBar.vue'
export { default as PasteAddressesDialog } from './PasteAddressesDialog.vue'

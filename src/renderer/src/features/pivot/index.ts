/**
 * Pivots: every address, transaction hash and block number shown is a link (docs/architecture.md
 * "Shared layers", "Entities"). Other features and pages import this feature only through this
 * file; it imports no other feature (they all render pivots): the actions that belong to them
 * come through platform/address-actions.ts.
 */
export { default as AddressPivot } from './AddressPivot.vue'
export { default as TxPivot } from './TxPivot.vue'
export { default as BlockPivot } from './BlockPivot.vue'
export { addressRoute, txRoute, blockRoute, otherNetwork } from './pivot-links'

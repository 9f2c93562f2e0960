/**
 * What an address, a transaction and a block are (issue 40): the address kind and the Contract
 * tab (Read contract, proxy slots), a transaction's logs and internal transfers, the Internal
 * transfers view of an address, and the block page's content. Reached only through this file.
 */
export { default as AddressKindMark } from './AddressKindMark.vue'
export { default as ReadContractPanel } from './ReadContractPanel.vue'
export { default as TxLogs } from './TxLogs.vue'
export { default as TxInternal } from './TxInternal.vue'
export { default as AddressInternalPanel } from './AddressInternalPanel.vue'
export { default as BlockPanel } from './BlockPanel.vue'
export { useEntitiesStore } from './entities-store'

/**
 * The JSON-RPC console's store, method list and history table (the page is pages/RpcView.vue).
 * Other features and pages import this feature only through this file.
 */
export { useRpcConsoleStore } from './rpc-console-store'
export { RPC_METHODS } from './rpc-methods'
export { default as RpcHistoryTable } from './RpcHistoryTable.vue'

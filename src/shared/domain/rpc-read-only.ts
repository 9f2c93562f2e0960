/**
 * The RPC console is read-only: it never sends a method that signs, sends or broadcasts a
 * transaction (or a message), nor one that asks a wallet or a node's accounts to act. Such a
 * call is refused before it reaches the limiter, from the console's form or raw JSON and from
 * the bridge's `rpc.call` and `rpc.batch` alike.
 *
 * By prefix, so that providers' variants are refused too (eth_sendRawTransactionConditional,
 * eth_sendBundle, eth_sendUserOperation, eth_signTypedData_v4, eth_submitWork,
 * eth_cancelPrivateTransaction); namespaces other than eth_, net_ and web3_ are refused by the
 * call schema already and are listed here for the same reason. Case-insensitive: a provider that
 * reads method names loosely must not receive `ETH_SENDRAWTRANSACTION` either.
 */
const WRITE_METHOD = /^(?:eth_(?:send|sign|submit|cancel)|personal_|wallet_|admin_|miner_|engine_|clique_)/i

/** Why `method` is not sent, in words the console shows; null for a read method. */
export function writeMethodRefusal(method: string): string | null {
  if (!WRITE_METHOD.test(method)) return null
  return `${method} signs, sends or broadcasts; the RPC console is read-only and does not send it. Use a wallet to send transactions.`
}

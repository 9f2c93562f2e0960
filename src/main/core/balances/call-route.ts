/**
 * The coin balances of many addresses in one `eth_call`, with the block they were read at (so
 * no `eth_blockNumber` is needed beside it):
 *
 * - `multicall3`: Multicall3's `aggregate3` of `getBlockNumber()` and one `getEthBalance(a)` per
 *   address, where the chain has Multicall3 at its canonical address;
 * - `deployless`: BalanceReader's creation code with the addresses as constructor arguments,
 *   sent without `to`: the node runs the constructor, which returns the block number and the
 *   balances as raw words (nothing is deployed; any node that runs `eth_call` runs this).
 */
export type CallRoute = 'multicall3' | 'deployless'

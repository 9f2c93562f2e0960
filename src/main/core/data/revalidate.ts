import type { RpcBatchItem } from '../../../shared/bridge/contract'
import { MAX_SAFE_BIGINT, parseHexQuantity } from '../../../shared/domain/amount'
import type { RequestOptions, RpcCallSpec, ServiceClient } from '../service/service-client'
import { TRANSFER, TRANSFER_BATCH, TRANSFER_SINGLE } from '../watch/watch-check'

/**
 * Revalidation (a conditional GET for an address): before balances or a first transactions
 * page older than their freshness window are fetched again, one JSON-RPC batch asks whether
 * the address changed since the block its cached data was current at (`since`):
 *
 *   eth_blockNumber                                  the head the answer speaks for
 *   eth_getTransactionCount at `since` and `latest`  did it send anything?
 *   eth_getBalance at `since` and `latest`           did coin move in or out?
 *   eth_getLogs since+1..latest × 4                  token transfers to or from it (the watch
 *                                                    check's three topic filters), and any log
 *                                                    the address itself emitted (a contract
 *                                                    being called)
 *   eth_gasPrice                                     with the head, this answer is also the
 *                                                    network's height poll (HeightWatcher.polled)
 *
 * Comparing state at `since` with `latest` needs no baseline of our own (no extra request at
 * the first fetch). Any error, unreadable answer or refused batch reads as "unknown" and the
 * caller refetches: only a clean "nothing moved" keeps the cache. What this cannot see is a
 * transaction to the address that moves no coin, no token and emits no log (a zero-value call
 * to an EOA, a reverted call to a contract), or coin moves that cancel out exactly; the caller
 * therefore also caps how long revalidated data may be served (DataService `revalidatedMaxMs`).
 * `tokens` tells whether token transfers moved: token balances change only with those, so a
 * coin-only change (a sent transaction, coin received) refetches the transactions, not them.
 */
export type Revalidation =
  | { kind: 'unchanged'; head: number; gasPriceWei: string | null }
  | { kind: 'changed'; tokens: boolean }
  | { kind: 'unknown'; reason: string }

const topicOf = (address: string): string => `0x${'0'.repeat(24)}${address.slice(2).toLowerCase()}`
const hex = (n: number): string => `0x${n.toString(16)}`

export function revalidationCalls(address: string, since: number): RpcCallSpec[] {
  const range = { fromBlock: hex(since + 1), toBlock: 'latest' }
  const topic = [topicOf(address)]
  return [
    { method: 'eth_blockNumber', params: [] },
    { method: 'eth_getTransactionCount', params: [address, hex(since)] },
    { method: 'eth_getTransactionCount', params: [address, 'latest'] },
    { method: 'eth_getBalance', params: [address, hex(since)] },
    { method: 'eth_getBalance', params: [address, 'latest'] },
    { method: 'eth_getLogs', params: [{ ...range, topics: [[TRANSFER], topic] }] },
    {
      method: 'eth_getLogs',
      params: [{ ...range, topics: [[TRANSFER, TRANSFER_SINGLE, TRANSFER_BATCH], null, topic] }],
    },
    { method: 'eth_getLogs', params: [{ ...range, topics: [[TRANSFER_SINGLE, TRANSFER_BATCH], null, null, topic] }] },
    { method: 'eth_getLogs', params: [{ ...range, address }] },
    { method: 'eth_gasPrice', params: [] },
  ]
}

/** Reads a revalidation batch's answers (in `revalidationCalls` order). */
export function readRevalidation(items: RpcBatchItem[], since: number): Revalidation {
  const quantity = (i: number): bigint | null => {
    const item = items[i]
    return item?.ok ? parseHexQuantity(item.result) : null
  }
  const headItem = items[0]
  const head = headItem?.ok ? parseHexQuantity(headItem.result, MAX_SAFE_BIGINT) : null
  if (head === null) return { kind: 'unknown', reason: 'no block number' }
  const gas = quantity(9)
  const unchanged: Revalidation = {
    kind: 'unchanged',
    head: Number(head),
    gasPriceWei: gas === null ? null : gas.toString(),
  }
  // No block since: nothing can have changed (anvil also refuses a log range that starts past the head).
  if (Number(head) <= since) return unchanged
  const [nonceThen, nonceNow, balanceThen, balanceNow] = [quantity(1), quantity(2), quantity(3), quantity(4)]
  // A node without the state at `since` (not an archive node) cannot tell: refetch.
  if (nonceThen === null || nonceNow === null || balanceThen === null || balanceNow === null)
    return { kind: 'unknown', reason: 'state at the cached block unavailable' }
  let coin = nonceThen !== nonceNow || balanceThen !== balanceNow
  let tokens = false
  for (const [i, item] of items.slice(5, 9).entries()) {
    if (!item?.ok || !Array.isArray(item.result)) return { kind: 'unknown', reason: 'logs unavailable' }
    // The first three are transfers to or from the address; the fourth, logs it emitted itself
    // (a contract being called: its transactions changed, its holdings did not).
    if (item.result.length > 0) {
      if (i < 3) tokens = true
      else coin = true
    }
  }
  return coin || tokens ? { kind: 'changed', tokens } : unchanged
}

/**
 * Asks once per address at a time (balances and the first page ask together). Only where the
 * endpoint takes batches: without them the check is 9 requests, dearer than the 2 it saves.
 */
export class Revalidator {
  readonly #inflight = new Map<string, Promise<Revalidation>>()

  constructor(private readonly client: ServiceClient) {}

  /**
   * Whether a revalidation is worth asking for on `network` now: only once a batch went through
   * there (an untried endpoint that refuses batches would make the check 1 + 9 requests).
   */
  usable(network: string): boolean {
    return this.client.batchSupport(network) === true
  }

  /** One check per address at a time: balances and the first page, asked together, share it. */
  check(network: string, address: string, since: number, options: RequestOptions): Promise<Revalidation> {
    const key = `${network}|${address}`
    let p = this.#inflight.get(key)
    if (!p) {
      p = this.#ask(network, address, since, options).finally(() => this.#inflight.delete(key))
      this.#inflight.set(key, p)
    }
    return p
  }

  async #ask(network: string, address: string, since: number, options: RequestOptions): Promise<Revalidation> {
    try {
      const calls = revalidationCalls(address, since)
      const items = await this.client.rpcCalls(network, calls, { ...options, attempts: 1 })
      return readRevalidation(items, since)
    } catch (error) {
      return { kind: 'unknown', reason: error instanceof Error ? error.message : String(error) }
    }
  }
}

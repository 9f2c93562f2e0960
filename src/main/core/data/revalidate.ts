import type { RpcBatchItem } from '@shared/bridge/contract'
import { MAX_SAFE_BIGINT, parseHexQuantity } from '@shared/domain/amount'
import type { ServiceClient } from '../service/service-client'
import type { RequestOptions, RpcCallSpec } from '../service/service-types'
import {
  addressTopic as topicOf,
  TRANSFER_BATCH_TOPIC as TRANSFER_BATCH,
  TRANSFER_SINGLE_TOPIC as TRANSFER_SINGLE,
  TRANSFER_TOPIC as TRANSFER,
} from '@shared/domain/events'
import { ZERO_ADDRESS } from '@shared/domain/contracts'
import { errorMessage } from '@shared/guards'

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

const hex = (n: number): string => `0x${n.toString(16)}`

/** One address to check, and the block its cached data was current at. */
export interface RevalidationTarget {
  address: string
  since: number
}

/** The batch for one address: head, its calls (`addressCalls`), gas price. */
export function revalidationCalls(address: string, since: number): RpcCallSpec[] {
  return revalidationBatch([{ address, since }])
}

/**
 * The batch for several addresses of one network: the head, the calls of each address (in
 * `targets` order), the gas price. One request however many (up to MAX_SIBLINGS + 1).
 */
export function revalidationBatch(targets: RevalidationTarget[]): RpcCallSpec[] {
  return [
    { method: 'eth_blockNumber', params: [] },
    ...targets.flatMap(({ address, since }) => addressCalls(address, since)),
    { method: 'eth_gasPrice', params: [] },
  ]
}

/** Calls per address in a batch (between the shared head and gas price), as `addressCalls` makes them. */
const PER_ADDRESS = addressCalls(ZERO_ADDRESS, 0).length

function addressCalls(address: string, since: number): RpcCallSpec[] {
  const range = { fromBlock: hex(since + 1), toBlock: 'latest' }
  const topic = [topicOf(address)]
  return [
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
  ]
}

/** A batch's answers read per target, with the head and gas price they share. */
export interface RevalidationAnswer {
  /** What was asked, in order (an answer shared by two callers is the first one's). */
  targets: RevalidationTarget[]
  head: number | null
  gasPriceWei: string | null
  results: Revalidation[]
}

/** Reads a `revalidationBatch` answer: one result per target, in order. */
export function readRevalidations(items: RpcBatchItem[], targets: RevalidationTarget[]): RevalidationAnswer {
  // A short answer reads as calls that failed: those targets come out unknown.
  const at = (i: number): RpcBatchItem => items[i] ?? { ok: false, code: -32603, message: 'no answer to this call' }
  const headItem = at(0)
  const gasItem = at(1 + targets.length * PER_ADDRESS)
  const head = headItem.ok ? parseHexQuantity(headItem.result, MAX_SAFE_BIGINT) : null
  const gas = gasItem.ok ? parseHexQuantity(gasItem.result) : null
  const results = targets.map(({ since }, i) => {
    const own = Array.from({ length: PER_ADDRESS }, (_, j) => at(1 + i * PER_ADDRESS + j))
    return readRevalidation([headItem, ...own, gasItem], since)
  })
  return {
    targets,
    head: head === null ? null : Number(head),
    gasPriceWei: gas === null ? null : gas.toString(),
    results,
  }
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

/** Calls of a revalidation of one address: what `usable` weighs against a refetch. */
const ONE_ADDRESS_CALLS = revalidationCalls(ZERO_ADDRESS, 0).length

/**
 * Most other addresses of the network asked about in the same batch (1 + 4 addresses: 42
 * calls, well within the 100 a batch may carry and what providers commonly accept).
 */
export const MAX_SIBLINGS = 4

/**
 * Asks once per address at a time (balances and the first page ask together). Only where the
 * endpoint takes batches: without them the check is 9 requests, dearer than the 2 it saves.
 */
export class Revalidator {
  readonly #inflight = new Map<string, Promise<RevalidationAnswer>>()

  constructor(private readonly client: ServiceClient) {}

  /**
   * Whether a revalidation is worth asking for on `network` now: only once a batch went through
   * there (an untried endpoint that refuses batches would make the check 1 + 10 requests), and
   * only where its batch costs less than the refetch it may save (balances and the first page,
   * 2 data requests): so a service billing per HTTP request (a batch is one), never one billing
   * per call, where the batch's 10 calls cost 10 units.
   */
  usable(network: string): boolean {
    return this.client.batchSupport(network) === true && this.client.unitsFor(network, ONE_ADDRESS_CALLS) < 2
  }

  /**
   * One check per address at a time: balances and the first page, asked together, share it.
   * `targets[0]` is the address asked about; the others ride in the same request (the batch
   * costs one request however many addresses it carries), so their next look needs none.
   */
  check(network: string, targets: RevalidationTarget[], options: RequestOptions): Promise<RevalidationAnswer> {
    const key = `${network}|${targets[0]!.address}`
    let p = this.#inflight.get(key)
    if (!p) {
      p = this.#ask(network, targets.slice(0, 1 + MAX_SIBLINGS), options).finally(() => this.#inflight.delete(key))
      this.#inflight.set(key, p)
    }
    return p
  }

  async #ask(network: string, targets: RevalidationTarget[], options: RequestOptions): Promise<RevalidationAnswer> {
    try {
      const items = await this.client.rpcCalls(network, revalidationBatch(targets), { ...options, attempts: 1 })
      return readRevalidations(items, targets)
    } catch (error) {
      const reason = errorMessage(error)
      return { targets, head: null, gasPriceWei: null, results: targets.map(() => ({ kind: 'unknown', reason })) }
    }
  }
}

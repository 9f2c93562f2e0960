import type { Priority, RpcBatchItem, WatchCheckResult, WatchStatus } from '../../../shared/bridge/contract'
import { AppError } from '../util/app-error'
import type { ProfileRuntime } from '../profiles/profile-runtime'
import type { RpcCallSpec } from '../service/service-client'
import { stateKey, statusOf, type AddressState, type ProfileWatchState } from './watch-state'
import { MAX_SAFE_BIGINT, parseHexQuantity } from '../../../shared/domain/amount'
import {
  addressTopic as topicOf,
  TRANSFER_BATCH_TOPIC as TRANSFER_BATCH,
  TRANSFER_SINGLE_TOPIC as TRANSFER_SINGLE,
  TRANSFER_TOPIC as TRANSFER,
} from '../../../shared/domain/events'

/**
 * The watch check (issue 11, item 4): "what changed since the last look" for many addresses at
 * a fraction of the quota. Per network, one JSON-RPC batch (chunked at 100 calls) of
 *
 *   eth_blockNumber                                   the head: the next check starts after it
 *   eth_getTransactionCount + eth_getBalance          per watched address: sent anything? coin moved?
 *   eth_getLogs × 3 (since the last checked block)    token transfers to or from the addresses:
 *     Transfer with the address as `from` (topic 1)   ERC-20 and ERC-721
 *     Transfer / TransferSingle / TransferBatch with the address as topic 2
 *                                                     (Transfer's `to`, the 1155 events' `from`)
 *     TransferSingle / TransferBatch with the address as topic 3 (their `to`)
 *
 * so 50 unchanged addresses cost 2 requests (104 calls in two chunks) where fetching balances
 * and first pages costs 100. Only changed addresses then refetch their balances and first
 * transactions page (2 requests each), which also refreshes what the app shows. Incoming coin
 * shows in the balance, outgoing anything in the nonce, incoming tokens in the logs; the one
 * change this cannot see is a coin transfer whose effect cancels out exactly between checks.
 * Without batches (a provider that refuses them) the same calls go one by one: 2n + 4
 * requests, told before it starts (`estimate`).
 */

export interface WatchTarget {
  network: string
  /** Lowercase. */
  address: string
}

export interface WatchCheckOptions {
  priority: Priority
  now: () => number
  /** A head learned from the check's eth_blockNumber: a free height correction. */
  onHead?: (network: string, head: number) => void
}

const hexBlock = (n: number): string => `0x${n.toString(16)}`

/** The calls of one network's check, in order: head, (nonce, balance) per address, then logs. */
export function watchCalls(addresses: string[], checkedBlock: number | null): RpcCallSpec[] {
  const calls: RpcCallSpec[] = [{ method: 'eth_blockNumber', params: [] }]
  for (const a of addresses) {
    calls.push(
      { method: 'eth_getTransactionCount', params: [a, 'latest'] },
      { method: 'eth_getBalance', params: [a, 'latest'] },
    )
  }
  // The first check only sets the baseline: there is no "since" yet.
  if (checkedBlock !== null && addresses.length > 0) {
    const topics = addresses.map(topicOf)
    const range = { fromBlock: hexBlock(checkedBlock + 1), toBlock: 'latest' }
    calls.push(
      { method: 'eth_getLogs', params: [{ ...range, topics: [[TRANSFER], topics] }] },
      {
        method: 'eth_getLogs',
        params: [{ ...range, topics: [[TRANSFER, TRANSFER_SINGLE, TRANSFER_BATCH], null, topics] }],
      },
      {
        method: 'eth_getLogs',
        params: [{ ...range, topics: [[TRANSFER_SINGLE, TRANSFER_BATCH], null, null, topics] }],
      },
    )
  }
  return calls
}

/** Groups targets by network, each address once. */
export function byNetwork(targets: WatchTarget[]): Map<string, string[]> {
  const map = new Map<string, Set<string>>()
  for (const t of targets) {
    let set = map.get(t.network)
    if (!set) map.set(t.network, (set = new Set()))
    set.add(t.address.toLowerCase())
  }
  return new Map([...map].map(([n, s]) => [n, [...s]]))
}

/** Requests a check of `targets` costs now, before changed addresses refetch (2 each). */
export function watchRequests(runtime: ProfileRuntime, state: ProfileWatchState, targets: WatchTarget[]): number {
  let n = 0
  for (const [network, addresses] of byNetwork(targets)) {
    n += runtime.client.requestsFor(
      network,
      watchCalls(addresses, state.networks[network]?.checkedBlock ?? null).length,
    )
  }
  return n
}

interface LogEntry {
  token: string
  topics: string[]
  data: string
}

function parseLogs(item: RpcBatchItem | undefined): LogEntry[] {
  if (!item?.ok || !Array.isArray(item.result)) return []
  const out: LogEntry[] = []
  for (const raw of item.result) {
    if (typeof raw !== 'object' || raw === null) continue
    const token = 'address' in raw && typeof raw.address === 'string' ? raw.address.toLowerCase() : null
    const rawTopics: unknown[] = 'topics' in raw && Array.isArray(raw.topics) ? raw.topics : []
    const topics = rawTopics.filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase())
    const data = 'data' in raw && typeof raw.data === 'string' ? raw.data : '0x'
    if (token && topics.length > 0) out.push({ token, topics, data })
  }
  return out
}

/** 32-byte words of a log's data, as bigints (malformed words read as 0). */
function words(data: string): bigint[] {
  const hex = data.startsWith('0x') ? data.slice(2) : data
  const out: bigint[] = []
  for (let i = 0; i + 64 <= hex.length; i += 64) {
    const w = hex.slice(i, i + 64)
    out.push(/^[0-9a-fA-F]+$/.test(w) ? BigInt(`0x${w}`) : 0n)
  }
  return out
}

/** Per watched address, the signed token amounts its logs moved, keyed `<standard>|<token>`. */
export function logDeltas(logs: LogEntry[], watched: Set<string>): Map<string, Map<string, bigint>> {
  const out = new Map<string, Map<string, bigint>>()
  const add = (topic: string | undefined, key: string, amount: bigint): void => {
    const address = topic && topic.length === 66 ? `0x${topic.slice(26)}` : null
    if (!address || !watched.has(address)) return
    let m = out.get(address)
    if (!m) out.set(address, (m = new Map()))
    m.set(key, (m.get(key) ?? 0n) + amount)
  }
  for (const log of logs) {
    const [topic0, t1, t2, t3] = log.topics
    if (topic0 === TRANSFER) {
      // ERC-721 indexes the token id (4 topics) and moves one item; ERC-20 carries the amount in data.
      const nft = log.topics.length === 4
      const key = `${nft ? 'erc721' : 'erc20'}|${log.token}`
      const amount = nft ? 1n : (words(log.data)[0] ?? 0n)
      add(t1, key, -amount)
      add(t2, key, amount)
    } else if (topic0 === TRANSFER_SINGLE || topic0 === TRANSFER_BATCH) {
      const w = words(log.data)
      // TransferSingle(id, value); TransferBatch(ids[], values[]) ABI-encoded: sum the values.
      let amount = 0n
      if (topic0 === TRANSFER_SINGLE) amount = w[1] ?? 0n
      else {
        const valuesAt = Number((w[1] ?? 0n) / 32n)
        const count = Number(w[valuesAt] ?? 0n)
        for (let i = 1; i <= count && valuesAt + i < w.length; i++) amount += w[valuesAt + i]!
      }
      const key = `erc1155|${log.token}`
      add(t2, key, -amount)
      add(t3, key, amount)
    }
  }
  return out
}

/** Checks one network: returns the new state of its addresses and what it cost. */
async function checkNetwork(
  runtime: ProfileRuntime,
  state: ProfileWatchState,
  network: string,
  addresses: string[],
  options: WatchCheckOptions,
): Promise<{ requests: number; changed: string[]; warning: string | null }> {
  const checkedBlock = state.networks[network]?.checkedBlock ?? null
  const calls = watchCalls(addresses, checkedBlock)
  const request = {
    priority: options.priority,
    scope: 'watch-check',
    attempts: options.priority === 'background' ? 1 : undefined,
  }
  const untried = runtime.client.batchSupport(network) === null
  const items = await runtime.client.rpcCalls(network, calls, request)
  // The refused batch that taught us (once per profile and network) cost a request too.
  let requests =
    runtime.client.requestsFor(network, calls.length) +
    (untried && runtime.client.batchSupport(network) === false ? 1 : 0)
  const headItem = items[0]
  const head = headItem?.ok ? parseHexQuantity(headItem.result, MAX_SAFE_BIGINT) : null
  if (head === null)
    throw new AppError(
      'protocol',
      `eth_blockNumber on ${network} gave no block number${headItem && !headItem.ok ? `: ${headItem.message}` : ''}.`,
    )
  options.onHead?.(network, Number(head))
  const logItems = checkedBlock === null ? [] : items.slice(1 + addresses.length * 2)
  const deltas = logDeltas(
    logItems.flatMap((item) => parseLogs(item)),
    new Set(addresses),
  )
  // A provider may refuse a long range of logs (days since the last check): then the range is
  // not skipped, it is read again at the next check, and the user is told.
  // With no block since the last check there is nothing to read; some nodes (anvil) answer
  // such a range (from > head) with an error rather than [].
  const logsFailed =
    checkedBlock !== null && Number(head) > checkedBlock ? logItems.find((item) => !item.ok) : undefined
  const at = new Date(options.now()).toISOString()
  const changed: string[] = []
  addresses.forEach((address, i) => {
    const nonceItem = items[1 + i * 2]
    const balanceItem = items[2 + i * 2]
    const nonce = nonceItem?.ok ? parseHexQuantity(nonceItem.result) : null
    const balance = balanceItem?.ok ? parseHexQuantity(balanceItem.result) : null
    if (nonce === null || balance === null) return // unreadable this time: keep the old state
    const key = stateKey(network, address)
    const prev = state.addresses[key]
    if (!prev) {
      state.addresses[key] = {
        nonce: nonce.toString(),
        balanceWei: balance.toString(),
        checkedAt: at,
        lookBlock: Number(head),
        lookBalanceWei: balance.toString(),
        newTxs: 0,
        newTxsMore: false,
        tokenDeltas: {},
        unseen: false,
      }
      return
    }
    const moved = deltas.get(address)
    const tokenDeltas = { ...prev.tokenDeltas }
    for (const [k, v] of moved ?? []) tokenDeltas[k] = (BigInt(tokenDeltas[k] ?? '0') + v).toString()
    const isChanged =
      nonce.toString() !== prev.nonce || balance.toString() !== prev.balanceWei || (moved?.size ?? 0) > 0
    state.addresses[key] = {
      ...prev,
      nonce: nonce.toString(),
      balanceWei: balance.toString(),
      checkedAt: at,
      tokenDeltas,
      unseen: prev.unseen || isChanged,
    }
    if (isChanged) changed.push(address)
  })
  // Only changed addresses refetch what the app shows: balances and the first page.
  await Promise.all(
    changed.map(async (address) => {
      const req = { network, address, priority: options.priority, scope: 'watch-check', refresh: true }
      const [balances, page] = await Promise.all([
        runtime.data.balances(req),
        runtime.data.transactions({ ...req, cursor: null }),
      ])
      requests += 2
      const key = stateKey(network, address)
      const s: AddressState = state.addresses[key]!
      // A pending transaction (no block yet) is new by definition.
      const fresh = page.items.filter((tx) => (tx.block ?? Infinity) > s.lookBlock).length
      const more = fresh === page.items.length && page.nextCursor !== null
      const tokenMeta = { ...s.tokenMeta }
      for (const item of balances.items) {
        const decimals = item.token.decimals === null ? null : Number(item.token.decimals)
        tokenMeta[item.token.address.toLowerCase()] = {
          symbol: item.token.symbol?.slice(0, 40) ?? null,
          decimals: decimals !== null && decimals <= 255 ? decimals : null,
        }
      }
      state.addresses[key] = { ...s, newTxs: fresh, newTxsMore: more, tokenMeta }
    }),
  )
  // Never backwards (a lagging node behind a load balancer): logs already counted are not counted twice.
  if (!logsFailed) state.networks[network] = { checkedBlock: Math.max(Number(head), checkedBlock ?? 0) }
  const warning =
    logsFailed && !logsFailed.ok
      ? `token transfers since block ${(checkedBlock ?? 0) + 1} could not be read (${logsFailed.message}); the next check reads them again`
      : null
  return { requests, changed, warning }
}

/** Runs the check over `targets`; networks that fail are reported, the others still count. */
export async function runWatchCheck(
  runtime: ProfileRuntime,
  state: ProfileWatchState,
  targets: WatchTarget[],
  options: WatchCheckOptions,
): Promise<WatchCheckResult> {
  const groups = byNetwork(targets)
  const networks = await Promise.all(
    [...groups].map(async ([network, addresses]) => {
      try {
        const r = await checkNetwork(runtime, state, network, addresses, options)
        return {
          network,
          addresses: addresses.length,
          changed: r.changed.length,
          requests: r.requests,
          batched: runtime.client.batchSupport(network) !== false,
          error: r.warning,
        }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        return {
          network,
          addresses: addresses.length,
          changed: 0,
          requests: 0,
          batched: runtime.client.batchSupport(network) !== false,
          error: message,
        }
      }
    }),
  )
  const statuses: WatchStatus[] = [...groups].flatMap(([network, addresses]) =>
    addresses.map((a) => statusOf(network, a, state.addresses[stateKey(network, a)])),
  )
  return {
    checkedAt: new Date(options.now()).toISOString(),
    addresses: statuses.length,
    changed: networks.reduce((n, x) => n + x.changed, 0),
    requests: networks.reduce((n, x) => n + x.requests, 0),
    networks,
    statuses,
  }
}

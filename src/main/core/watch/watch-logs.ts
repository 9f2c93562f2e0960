import type { RpcBatchItem } from '@shared/bridge/contract'
import { MAX_SAFE_BIGINT, parseHexQuantity } from '@shared/domain/amount'
import {
  addressTopic,
  TRANSFER_BATCH_TOPIC,
  TRANSFER_SINGLE_TOPIC,
  TRANSFER_TOPIC,
  topicAddress,
} from '@shared/domain/events'
import type { RpcCallSpec } from '../service/service-types'

/**
 * Token movements of every watched address of a network in three `eth_getLogs`, one per
 * topic position (a filter's positions are ANDed, the addresses in one position ORed):
 *
 *   Transfer with any of the addresses as topic 1 (`from`)              ERC-20 and ERC-721
 *   Transfer / TransferSingle / TransferBatch with any as topic 2       Transfer's `to`, the
 *                                                                       1155 events' `from`
 *   TransferSingle / TransferBatch with any as topic 3 (their `to`)
 */
export const LOG_CALLS_PER_RANGE = 3

const hexBlock = (n: number): string => `0x${n.toString(16)}`

/** The three filters over [from, to] (`to` a block number, or 'latest'). */
export function transferLogCalls(addresses: readonly string[], from: number, to: number | 'latest'): RpcCallSpec[] {
  const topics = addresses.map(addressTopic)
  const range = { fromBlock: hexBlock(from), toBlock: to === 'latest' ? 'latest' : hexBlock(to) }
  return [
    { method: 'eth_getLogs', params: [{ ...range, topics: [[TRANSFER_TOPIC], topics] }] },
    {
      method: 'eth_getLogs',
      params: [{ ...range, topics: [[TRANSFER_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_BATCH_TOPIC], null, topics] }],
    },
    {
      method: 'eth_getLogs',
      params: [{ ...range, topics: [[TRANSFER_SINGLE_TOPIC, TRANSFER_BATCH_TOPIC], null, null, topics] }],
    },
  ]
}

export interface LogEntry {
  token: string
  topics: string[]
  data: string
  /** Null when the provider left it out. */
  block: number | null
  /** Identifies one log across overlapping answers (null when the provider left its fields out). */
  id: string | null
}

/** The logs of a getLogs answer; null when the answer is an error or not a list. */
export function parseLogs(item: RpcBatchItem | undefined): LogEntry[] | null {
  if (!item?.ok || !Array.isArray(item.result)) return null
  const out: LogEntry[] = []
  for (const raw of item.result as unknown[]) {
    if (typeof raw !== 'object' || raw === null) continue
    const r = raw as Record<string, unknown>
    const token = typeof r.address === 'string' ? r.address.toLowerCase() : null
    const rawTopics: unknown[] = Array.isArray(r.topics) ? r.topics : []
    const topics = rawTopics.filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase())
    const data = typeof r.data === 'string' ? r.data : '0x'
    const block = parseHexQuantity(r.blockNumber, MAX_SAFE_BIGINT)
    const id =
      typeof r.transactionHash === 'string' && typeof r.logIndex === 'string'
        ? `${r.transactionHash.toLowerCase()}|${r.logIndex}`
        : null
    if (token && topics.length > 0) out.push({ token, topics, data, block: block === null ? null : Number(block), id })
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

/**
 * Per watched address, the signed token amounts its logs moved, keyed `<standard>|<token>`.
 * A log that two filters matched (an ERC-1155 transfer from one watched address to another)
 * counts once.
 */
export function logDeltas(logs: readonly LogEntry[], watched: Set<string>): Map<string, Map<string, bigint>> {
  const out = new Map<string, Map<string, bigint>>()
  const add = (topic: string | undefined, key: string, amount: bigint): void => {
    const address = topicAddress(topic)
    if (!address || !watched.has(address)) return
    let m = out.get(address)
    if (!m) out.set(address, (m = new Map()))
    m.set(key, (m.get(key) ?? 0n) + amount)
  }
  const seen = new Set<string>()
  for (const log of logs) {
    if (log.id !== null) {
      if (seen.has(log.id)) continue
      seen.add(log.id)
    }
    const [topic0, t1, t2, t3] = log.topics
    if (topic0 === TRANSFER_TOPIC) {
      // ERC-721 indexes the token id (4 topics) and moves one item; ERC-20 carries the amount in data.
      const nft = log.topics.length === 4
      const key = `${nft ? 'erc721' : 'erc20'}|${log.token}`
      const amount = nft ? 1n : (words(log.data)[0] ?? 0n)
      add(t1, key, -amount)
      add(t2, key, amount)
    } else if (topic0 === TRANSFER_SINGLE_TOPIC || topic0 === TRANSFER_BATCH_TOPIC) {
      const w = words(log.data)
      // TransferSingle(id, value); TransferBatch(ids[], values[]) ABI-encoded: sum the values.
      let amount = 0n
      if (topic0 === TRANSFER_SINGLE_TOPIC) amount = w[1] ?? 0n
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

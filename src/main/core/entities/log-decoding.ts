import { decodeAbiParameters } from 'viem'
import {
  APPROVAL_FOR_ALL_TOPIC,
  APPROVAL_TOPIC,
  topicAddress,
  TRANSFER_BATCH_TOPIC,
  TRANSFER_SINGLE_TOPIC,
  TRANSFER_TOPIC,
} from '@shared/domain/events'
import type { DecodedLog } from '@shared/bridge/entity-types'

/** One event log as the chain gives it (addresses lowercase, topics and data hex). */
export interface RawLog {
  address: string
  topics: string[]
  data: string
}

/** Most ids one decoded TransferBatch lists (a larger one is shown undecoded). */
const MAX_BATCH_IDS = 1000

const word = (data: string, i: number): bigint | null => {
  const hex = data.slice(2 + i * 64, 2 + (i + 1) * 64)
  return hex.length === 64 ? BigInt(`0x${hex}`) : null
}

/**
 * The events Chainscope knows, decoded from their topics and data: ERC-20/721 `Transfer` and
 * `Approval` (the ERC-721 forms index the token id: four topics), `ApprovalForAll`, ERC-1155
 * `TransferSingle` and `TransferBatch`. Anything else, or a known topic whose shape does not
 * fit, is null (shown undecoded, never guessed).
 */
export function decodeKnownLog(log: RawLog): DecodedLog | null {
  const [t0, t1, t2, t3] = log.topics
  const a1 = topicAddress(t1)
  const a2 = topicAddress(t2)
  const bytes = (log.data.length - 2) / 2
  if ((t0 === TRANSFER_TOPIC || t0 === APPROVAL_TOPIC) && a1 && a2) {
    const transfer = t0 === TRANSFER_TOPIC
    const event = transfer ? 'Transfer' : 'Approval'
    const first = arg(transfer ? 'from' : 'owner', a1)
    if (log.topics.length === 3 && bytes === 32)
      return {
        event,
        standard: 'ERC-20',
        args: [first, arg(transfer ? 'to' : 'spender', a2), arg('value', word(log.data, 0)!.toString())],
      }
    if (log.topics.length === 4 && bytes === 0 && t3)
      return {
        event,
        standard: 'ERC-721',
        args: [first, arg(transfer ? 'to' : 'approved', a2), arg('tokenId', BigInt(t3).toString())],
      }
    return null
  }
  if (t0 === APPROVAL_FOR_ALL_TOPIC && a1 && a2 && log.topics.length === 3 && bytes === 32) {
    const on = word(log.data, 0)
    if (on !== 0n && on !== 1n) return null
    return {
      event: 'ApprovalForAll',
      standard: 'ERC-721/1155',
      args: [arg('owner', a1), arg('operator', a2), arg('approved', String(on === 1n))],
    }
  }
  const to = topicAddress(t3)
  if (t0 === TRANSFER_SINGLE_TOPIC && a1 && a2 && to && log.topics.length === 4 && bytes === 64)
    return {
      event: 'TransferSingle',
      standard: 'ERC-1155',
      args: [
        arg('operator', a1),
        arg('from', a2),
        arg('to', to),
        arg('id', word(log.data, 0)!.toString()),
        arg('value', word(log.data, 1)!.toString()),
      ],
    }
  if (t0 === TRANSFER_BATCH_TOPIC && a1 && a2 && to && log.topics.length === 4) return transferBatch(log, [a1, a2, to])
  return null
}

function transferBatch(log: RawLog, [operator, from, to]: string[]): DecodedLog | null {
  // Each array's length word says how long it is: a hostile length is caught before decoding.
  const words = (log.data.length - 2) / 64
  if (!Number.isInteger(words) || words > 4 + 2 * MAX_BATCH_IDS) return null
  try {
    const [ids, values] = decodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], log.data as `0x${string}`)
    if (ids.length !== values.length) return null
    return {
      event: 'TransferBatch',
      standard: 'ERC-1155',
      args: [
        arg('operator', operator!),
        arg('from', from!),
        arg('to', to!),
        arg('ids', ids.map(String).join(', ')),
        arg('values', values.map(String).join(', ')),
      ],
    }
  } catch {
    return null
  }
}

const arg = (name: string, value: string): { name: string; value: string } => ({ name, value })

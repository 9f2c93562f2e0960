import { TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC } from '@shared/domain/events'
import type { TokenType, TransferRecord } from './types'

/** Token transfers from receipt logs: ERC-20/721 Transfer and ERC-1155 TransferSingle/Batch. */

export interface RawLog {
  address: string
  topics: string[]
  data: string
  logIndex: string
}

const topicAddress = (topic: string): string => `0x${topic.slice(-40)}`.toLowerCase()
const word = (data: string, i: number): bigint => BigInt(`0x${data.slice(2 + i * 64, 2 + (i + 1) * 64) || '0'}`)

export interface DecodedTransfer extends TransferRecord {
  tokenType: TokenType
}

export function decodeTransfers(logs: readonly RawLog[]): DecodedTransfer[] {
  const out: DecodedTransfer[] = []
  for (const log of logs) {
    const [topic0, t1, t2, t3] = log.topics
    const token = log.address.toLowerCase()
    const logIndex = Number(log.logIndex)
    try {
      if (topic0 === TRANSFER_TOPIC && t1 && t2 && log.topics.length === 3 && log.data.length >= 66) {
        out.push({
          token,
          tokenType: 'ERC-20',
          from: topicAddress(t1),
          to: topicAddress(t2),
          logIndex,
          tokenId: null,
          amount: word(log.data, 0).toString(),
        })
      } else if (topic0 === TRANSFER_TOPIC && t1 && t2 && t3 && log.topics.length === 4) {
        out.push({
          token,
          tokenType: 'ERC-721',
          from: topicAddress(t1),
          to: topicAddress(t2),
          logIndex,
          tokenId: BigInt(t3).toString(),
          amount: '1',
        })
      } else if (topic0 === TRANSFER_SINGLE_TOPIC && t2 && t3) {
        out.push({
          token,
          tokenType: 'ERC-1155',
          from: topicAddress(t2),
          to: topicAddress(t3),
          logIndex,
          tokenId: word(log.data, 0).toString(),
          amount: word(log.data, 1).toString(),
        })
      } else if (topic0 === TRANSFER_BATCH_TOPIC && t2 && t3) {
        // data: offset(ids), offset(values), then each dynamic array as length + items.
        const idsAt = Number(word(log.data, 0) / 32n)
        const valuesAt = Number(word(log.data, 1) / 32n)
        const count = Number(word(log.data, idsAt))
        for (let i = 0; i < count; i++) {
          out.push({
            token,
            tokenType: 'ERC-1155',
            from: topicAddress(t2),
            to: topicAddress(t3),
            logIndex,
            tokenId: word(log.data, idsAt + 1 + i).toString(),
            amount: word(log.data, valuesAt + 1 + i).toString(),
          })
        }
      }
    } catch {
      // A log that only looks like a transfer (malformed data) is not one; skip it.
    }
  }
  return out
}

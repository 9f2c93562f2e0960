import type { TokenType, TransferRecord } from './types'

/** Token transfers from receipt logs: ERC-20/721 Transfer and ERC-1155 TransferSingle/Batch. */

export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
export const TRANSFER_SINGLE_TOPIC = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62'
export const TRANSFER_BATCH_TOPIC = '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb'

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

import { isAddressText } from '@shared/domain/address'
import { MAX_SAFE_BIGINT, parseHexQuantity } from '@shared/domain/amount'
import type { EntityAsOf, LogView, ReceiptView } from '@shared/bridge/entity-types'
import { isRecord } from '@shared/guards'
import { AppError } from '../util/app-error'
import { decodeKnownLog } from './log-decoding'

/** Most logs read from one receipt (a full 30M-gas block holds about 8,000 of the cheapest). */
const MAX_RECEIPT_LOGS = 10_000
/** A log has at most four topics (LOG0 to LOG4). */
const MAX_LOG_TOPICS = 4
/** Most bytes of data read from one log. */
const MAX_LOG_DATA_BYTES = 256 * 1024

type ReceiptFields = Omit<ReceiptView, keyof EntityAsOf>

const HASH = /^0x[0-9a-fA-F]{64}$/

/**
 * An `eth_getTransactionReceipt` answer, checked: the receipt of the transaction asked for (not
 * another's), within bounds (a log has at most 4 topics; at most 10,000 logs and 256 KiB of
 * data per log are read), its known events decoded. Anything else is a clear `protocol` error
 * naming what was wrong; a null answer (pending or unknown) is `not-found`.
 */
export function readReceipt(raw: unknown, hash: string, network: string): ReceiptFields {
  if (raw === null)
    throw new AppError(
      'not-found',
      `${network}'s node has no receipt for ${hash}: the transaction is pending or unknown to it.`,
    )
  const bad = (what: string): AppError =>
    new AppError('protocol', `The receipt answered for ${hash} is not readable: ${what}.`)
  if (!isRecord(raw)) throw bad('it is not an object')
  const got = typeof raw.transactionHash === 'string' ? raw.transactionHash.toLowerCase() : null
  if (got !== hash.toLowerCase())
    throw new AppError(
      'protocol',
      `The RPC endpoint answered the receipt of ${got && HASH.test(got) ? got : 'another transaction'} when asked for ${hash}; it is not shown.`,
    )
  const address = (v: unknown, where: string): string => {
    if (typeof v !== 'string' || !isAddressText(v)) throw bad(`${where} is not an address`)
    return v.toLowerCase()
  }
  const quantity = (v: unknown, where: string, max?: bigint): bigint => {
    const n = parseHexQuantity(v, max)
    if (n === null) throw bad(`${where} is not a hex quantity`)
    return n
  }
  if (typeof raw.blockHash !== 'string' || !HASH.test(raw.blockHash)) throw bad('its blockHash is not a hash')
  if (!Array.isArray(raw.logs)) throw bad('its logs are not a list')
  if (raw.logs.length > MAX_RECEIPT_LOGS)
    throw bad(
      `it holds ${raw.logs.length.toLocaleString('en-US')} logs; at most ${MAX_RECEIPT_LOGS.toLocaleString('en-US')} are read`,
    )
  const status = raw.status === undefined || raw.status === null ? null : quantity(raw.status, 'its status')
  return {
    hash: hash.toLowerCase(),
    status: status === null ? null : status === 1n ? 'success' : 'failed',
    block: Number(quantity(raw.blockNumber, 'its blockNumber', MAX_SAFE_BIGINT)),
    blockHash: raw.blockHash.toLowerCase(),
    from: address(raw.from, 'its sender'),
    to: raw.to === null || raw.to === undefined ? null : address(raw.to, 'its recipient'),
    gasUsed: quantity(raw.gasUsed, 'its gasUsed').toString(),
    effectiveGasPrice:
      raw.effectiveGasPrice === undefined || raw.effectiveGasPrice === null
        ? null
        : quantity(raw.effectiveGasPrice, 'its effectiveGasPrice').toString(),
    contractCreated:
      raw.contractAddress === undefined || raw.contractAddress === null
        ? null
        : address(raw.contractAddress, 'its contractAddress'),
    logs: raw.logs.map((log, i) => readLog(log, i, bad)),
  }
}

function readLog(raw: unknown, i: number, bad: (what: string) => AppError): LogView {
  if (!isRecord(raw)) throw bad(`log ${i} is not an object`)
  if (typeof raw.address !== 'string' || !isAddressText(raw.address))
    throw bad(`the emitter of log ${i} is not an address`)
  const topics = raw.topics
  if (!Array.isArray(topics)) throw bad(`the topics of log ${i} are not a list`)
  if (topics.length > MAX_LOG_TOPICS)
    throw bad(`log ${i} has ${topics.length.toLocaleString('en-US')} topics; a log has at most ${MAX_LOG_TOPICS}`)
  topics.forEach((t, j) => {
    if (typeof t !== 'string' || !HASH.test(t)) throw bad(`topic ${j} of log ${i} is not 32 bytes of hex`)
  })
  const data = raw.data
  if (typeof data !== 'string') throw bad(`the data of log ${i} is not hex bytes`)
  if (data.length > 2 + 2 * MAX_LOG_DATA_BYTES)
    throw bad(
      `the data of log ${i} is ${Math.floor((data.length - 2) / 2).toLocaleString('en-US')} bytes; at most ${MAX_LOG_DATA_BYTES.toLocaleString('en-US')} are read`,
    )
  if (!/^0x([0-9a-fA-F]{2})*$/.test(data)) throw bad(`the data of log ${i} is not hex bytes`)
  const index = parseHexQuantity(raw.logIndex, MAX_SAFE_BIGINT)
  const log = {
    address: raw.address.toLowerCase(),
    topics: (topics as string[]).map((t) => t.toLowerCase()),
    data: data.toLowerCase(),
  }
  return { index: index === null ? null : Number(index), ...log, decoded: decodeKnownLog(log) }
}

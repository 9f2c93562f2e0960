import { isAddressText } from '@shared/domain/address'
import { MAX_SAFE_BIGINT, parseHexQuantity } from '@shared/domain/amount'
import type { BlockTxSummary, BlockView, EntityAsOf } from '@shared/bridge/entity-types'
import { isRecord } from '@shared/guards'
import { AppError } from '../util/app-error'

/** Most transactions read from one block (a 30M-gas block holds about 1,430 plain transfers). */
const MAX_BLOCK_TXS = 20_000

const HASH = /^0x[0-9a-fA-F]{64}$/

type BlockFields = Omit<BlockView, keyof EntityAsOf>

/**
 * An `eth_getBlockByNumber` answer, checked: the block asked for (not another), its header, and
 * its transactions as hashes (`full` false) or as objects summarised (`full` true).
 */
export function readBlock(raw: unknown, number: number, full: boolean, network: string): BlockFields {
  if (raw === null) throw new AppError('not-found', `${network}'s node has no block ${number} yet.`)
  const bad = (what: string): AppError =>
    new AppError('protocol', `The block answered for ${number} is not readable: ${what}.`)
  if (!isRecord(raw)) throw bad('it is not an object')
  const quantity = (v: unknown, where: string, max?: bigint): bigint => {
    const n = parseHexQuantity(v, max)
    if (n === null) throw bad(`${where} is not a hex quantity`)
    return n
  }
  const hash = (v: unknown, where: string): string => {
    if (typeof v !== 'string' || !HASH.test(v)) throw bad(`${where} is not a hash`)
    return v.toLowerCase()
  }
  const address = (v: unknown, where: string): string => {
    if (typeof v !== 'string' || !isAddressText(v)) throw bad(`${where} is not an address`)
    return v.toLowerCase()
  }
  const got = Number(quantity(raw.number, 'its number', MAX_SAFE_BIGINT))
  if (got !== number)
    throw new AppError(
      'protocol',
      `The RPC endpoint answered block ${got} when asked for block ${number}; it is not shown.`,
    )
  const txs = raw.transactions
  if (!Array.isArray(txs)) throw bad('its transactions are not a list')
  if (txs.length > MAX_BLOCK_TXS)
    throw bad(
      `it lists ${txs.length.toLocaleString('en-US')} transactions; at most ${MAX_BLOCK_TXS.toLocaleString('en-US')} are read`,
    )
  const summaries: BlockTxSummary[] | null = full
    ? txs.map((t, i) => {
        if (!isRecord(t)) throw bad(`transaction ${i} is not an object (asked for full transactions)`)
        return {
          hash: hash(t.hash, `the hash of transaction ${i}`),
          from: address(t.from, `the sender of transaction ${i}`),
          to: t.to === null || t.to === undefined ? null : address(t.to, `the recipient of transaction ${i}`),
          value: quantity(t.value, `the value of transaction ${i}`).toString(),
        }
      })
    : null
  const seconds = Number(quantity(raw.timestamp, 'its timestamp', MAX_SAFE_BIGINT))
  const time = new Date(seconds * 1000)
  if (Number.isNaN(time.getTime())) throw bad('its timestamp is out of range')
  return {
    number,
    hash: hash(raw.hash, 'its hash'),
    parentHash: hash(raw.parentHash, 'its parentHash'),
    timestamp: time.toISOString(),
    miner: address(raw.miner, 'its miner'),
    baseFeePerGas:
      raw.baseFeePerGas === undefined || raw.baseFeePerGas === null
        ? null
        : quantity(raw.baseFeePerGas, 'its baseFeePerGas').toString(),
    gasUsed: quantity(raw.gasUsed, 'its gasUsed').toString(),
    gasLimit: quantity(raw.gasLimit, 'its gasLimit').toString(),
    transactionCount: txs.length,
    transactions: summaries ? summaries.map((s) => s.hash) : txs.map((t, i) => hash(t, `transaction ${i}`)),
    full: summaries,
  }
}

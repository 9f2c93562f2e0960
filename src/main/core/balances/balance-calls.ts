import { encodeAbiParameters, encodeFunctionData, multicall3Abi, parseAbi } from 'viem'
import type { RpcBatchItem } from '@shared/bridge/contract'
import { MAX_SAFE_BIGINT, parseHexQuantity } from '@shared/domain/amount'
import { MULTICALL3_ADDRESS } from '@shared/domain/contracts'
import type { RpcCallSpec } from '../service/service-types'
import { BALANCE_READER_BYTECODE } from './balance-reader-bytecode'
import { multicall3Call, readAggregate } from './aggregate3'
import type { CallRoute } from './call-route'

/** Most addresses per eth_call: 2,600 gas each (a cold BALANCE), well inside nodes' call gas caps. */
export const ADDRESSES_PER_CALL = 500

const extraAbi = parseAbi(['function getBlockNumber() view returns (uint256 blockNumber)'])
const abi = [...multicall3Abi, ...extraAbi] as const

/** Block number and balances as one call reads them, in the addresses' order. */
export interface BalanceRead {
  head: number
  balances: bigint[]
}

export function balanceCall(route: CallRoute, addresses: readonly string[]): RpcCallSpec {
  if (route === 'deployless') {
    const args = encodeAbiParameters([{ type: 'address[]' }], [addresses as `0x${string}`[]])
    return { method: 'eth_call', params: [{ data: `${BALANCE_READER_BYTECODE}${args.slice(2)}` }, 'latest'] }
  }
  const target = MULTICALL3_ADDRESS
  return multicall3Call([
    { target, allowFailure: false, callData: encodeFunctionData({ abi, functionName: 'getBlockNumber' }) },
    ...addresses.map((a) => ({
      target,
      allowFailure: false,
      callData: encodeFunctionData({ abi, functionName: 'getEthBalance', args: [a as `0x${string}`] }),
    })),
  ])
}

/** Reads a `balanceCall` answer; null when it is not what that call returns (an error, no data, cut short). */
export function readBalanceCall(route: CallRoute, item: RpcBatchItem | undefined, count: number): BalanceRead | null {
  let words: bigint[]
  if (route === 'deployless') {
    const data = item?.ok && typeof item.result === 'string' ? item.result : ''
    // One pass over the hex, no repeated group (that walks a 500-address answer for milliseconds).
    if (data.length !== 2 + 64 * (count + 1) || !/^0x[0-9a-fA-F]*$/.test(data)) return null
    words = Array.from({ length: count + 1 }, (_, i) => BigInt(`0x${data.slice(2 + i * 64, 66 + i * 64)}`))
  } else {
    const results = readAggregate(item, count + 1)
    if (!results) return null
    words = results.map((r) => (r.ok && r.data.length === 66 ? BigInt(r.data) : -1n))
    if (words.some((w) => w < 0n)) return null
  }
  const head = words[0]!
  if (head > MAX_SAFE_BIGINT) return null
  return { head: Number(head), balances: words.slice(1) }
}

/** Asks whether Multicall3 is at its canonical address: code there means yes. */
export const multicallProbe: RpcCallSpec = { method: 'eth_getCode', params: [MULTICALL3_ADDRESS, 'latest'] }

/** Reads the probe's answer: true (code), false (none), null (no answer: ask again next time). */
export function readMulticallProbe(item: RpcBatchItem | undefined): boolean | null {
  if (!item?.ok || typeof item.result !== 'string' || !item.result.startsWith('0x')) return null
  return item.result.length > 2
}

/** The single calls of the last resort (a provider that refuses `eth_call`): the head, then each balance. */
export function singleCalls(addresses: readonly string[]): RpcCallSpec[] {
  return [
    { method: 'eth_blockNumber', params: [] },
    ...addresses.map((a) => ({ method: 'eth_getBalance', params: [a, 'latest'] })),
  ]
}

/** Reads `singleCalls` answers: null balances where a call failed (those addresses stay unknown this time). */
export function readSingleCalls(
  items: RpcBatchItem[],
  count: number,
): { head: number | null; balances: (bigint | null)[] } {
  const head = items[0]?.ok ? parseHexQuantity(items[0].result, MAX_SAFE_BIGINT) : null
  const balances = Array.from({ length: count }, (_, i) => {
    const item = items[1 + i]
    return item?.ok ? parseHexQuantity(item.result) : null
  })
  return { head: head === null ? null : Number(head), balances }
}

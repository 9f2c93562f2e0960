import { encodeAbiParameters, encodeFunctionResult, multicall3Abi, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import type { RpcBatchItem } from '@shared/bridge/contract'
import { readBalanceCall } from './balance-calls'

const word = (n: bigint): `0x${string}` => toHex(n, { size: 32 })
/** Multicall3's aggregate3 answer, as a node encodes it. */
const aggregate = (results: { success: boolean; returnData: `0x${string}` }[]): RpcBatchItem => ({
  ok: true,
  result: encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: results }),
})
const ok = (n: bigint) => ({ success: true, returnData: word(n) })

describe('readBalanceCall', () => {
  it('reads the head and each balance through Multicall3, in order, as bigints', () => {
    const big = 10n ** 30n
    expect(readBalanceCall('multicall3', aggregate([ok(42n), ok(big), ok(0n)]), 2)).toEqual({
      head: 42,
      balances: [big, 0n],
    })
  })

  it('refuses a Multicall3 answer cut short, with a failed or odd-sized result, or not hex', () => {
    expect(readBalanceCall('multicall3', aggregate([ok(42n), ok(1n)]), 2)).toBeNull()
    expect(readBalanceCall('multicall3', aggregate([ok(42n), { success: false, returnData: word(1n) }]), 1)).toBeNull()
    expect(readBalanceCall('multicall3', aggregate([ok(42n), { success: true, returnData: '0x01' }]), 1)).toBeNull()
    expect(readBalanceCall('multicall3', { ok: true, result: '0xzz' }, 1)).toBeNull()
    expect(readBalanceCall('multicall3', { ok: false, code: -32000, message: 'execution reverted' }, 1)).toBeNull()
    // A head past what a Number holds exactly is no head.
    expect(readBalanceCall('multicall3', aggregate([ok(2n ** 60n), ok(1n)]), 1)).toBeNull()
  })

  it('reads the deployless reader’s words and refuses any other length', () => {
    const answer = encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }],
      [7n, 5n, 2n ** 255n],
    )
    expect(readBalanceCall('deployless', { ok: true, result: answer }, 2)).toEqual({
      head: 7,
      balances: [5n, 2n ** 255n],
    })
    expect(readBalanceCall('deployless', { ok: true, result: answer }, 3)).toBeNull()
    expect(readBalanceCall('deployless', { ok: true, result: `${answer.slice(0, -1)}g` }, 2)).toBeNull()
  })
})

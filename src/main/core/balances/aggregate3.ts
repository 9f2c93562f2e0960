import { createPublicClient, custom, encodeFunctionData, type Abi, type EncodeFunctionDataParameters } from 'viem'
import type { RpcBatchItem } from '@shared/bridge/contract'
import { MULTICALL3_ADDRESS } from '@shared/domain/contracts'
import type { RpcCallSpec } from '../service/service-types'
import { decodeAggregate3, encodeAggregate3, type Aggregate3Call, type ReadResult } from './aggregate3-codec'
import type { CallRoute } from './call-route'

/** One read inside an aggregate: a contract, its ABI and the function to call. */
export interface ContractRead {
  address: string
  abi: Abi
  functionName: string
  args: readonly unknown[]
}

/** Multicall3's `aggregate3` of raw calls (each may fail alone), sent to its canonical address. */
export function multicall3Call(calls: Aggregate3Call[]): RpcCallSpec {
  return { method: 'eth_call', params: [{ to: MULTICALL3_ADDRESS, data: encodeAggregate3(calls) }, 'latest'] }
}

class Captured extends Error {}

/**
 * Many contract reads in one `eth_call`, each allowed to fail alone: Multicall3's `aggregate3`
 * where the chain has it at its canonical address, else viem's deployless multicall (Multicall3's
 * creation code run inside the call, nothing deployed). The deployless call is the one viem
 * itself would send: its action runs against a transport that keeps the `eth_call` instead of
 * sending it, so the call rides in the caller's batch and its cost is counted like any other.
 */
export async function aggregateReads(route: CallRoute, reads: readonly ContractRead[]): Promise<RpcCallSpec> {
  const encoded = reads.map((r) => {
    const params: EncodeFunctionDataParameters = { abi: r.abi, functionName: r.functionName, args: r.args }
    return { target: r.address, allowFailure: true, callData: encodeFunctionData(params) }
  })
  if (route === 'multicall3') return multicall3Call(encoded)
  let call: RpcCallSpec | null = null
  const client = createPublicClient({
    transport: custom(
      {
        request: ({ method, params }: { method: string; params: unknown[] }) => {
          if (method === 'eth_call') call = { method, params: [(params as unknown[])[0], 'latest'] }
          throw new Captured('captured')
        },
      },
      { retryCount: 0 },
    ),
  })
  await client.multicall({
    contracts: reads.map((r) => ({
      address: r.address as `0x${string}`,
      abi: r.abi,
      functionName: r.functionName,
      args: r.args,
    })),
    deployless: true,
    batchSize: 0,
    allowFailure: true,
  })
  if (call === null) throw new Error('viem built no deployless multicall for these reads')
  return call
}

/** Reads an aggregate's answer, one result per read in order; null when the answer is not one (refused, cut short). */
export function readAggregate(item: RpcBatchItem | undefined, count: number): ReadResult[] | null {
  // One pass over the hex (a repeated group would walk a 100 KB answer of 500 results in ~20 ms).
  const hex = item?.ok && typeof item.result === 'string' ? item.result : ''
  if (hex.length % 2 !== 0 || !/^0x[0-9a-fA-F]*$/.test(hex)) return null
  const results = decodeAggregate3(hex)
  return results && results.length === count ? results : null
}

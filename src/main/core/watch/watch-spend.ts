import type { RpcBatchItem } from '../../../shared/bridge/contract'
import type { ProfileRuntime } from '../profiles/profile-runtime'
import type { RequestOptions, RpcCallSpec } from '../service/service-client'

/** What a check spent, in the service's unit (what its quota counts). */
export interface Spend {
  units: number
}

/** The parts of a runtime a check's calls go through. */
export type CheckRuntime = Pick<ProfileRuntime, 'client' | 'data' | 'limiters' | 'balances'>

/**
 * Sends `calls` as few requests as the endpoint allows and adds what they cost to `spend`,
 * the refused batch that taught the client to send single calls included.
 */
export async function sendCalls(
  runtime: CheckRuntime,
  network: string,
  calls: RpcCallSpec[],
  options: RequestOptions,
  spend: Spend,
): Promise<RpcBatchItem[]> {
  if (calls.length === 0) return []
  const untried = runtime.client.batchSupport(network) === null
  const items = await runtime.client.rpcCalls(network, calls, options)
  spend.units +=
    runtime.client.requestsFor(network, calls.length) +
    (untried && calls.length > 1 && runtime.client.batchSupport(network) === false ? 1 : 0)
  return items
}

/** What `calls` RPC calls cost now, sent as `sendCalls` sends them. */
export const rpcUnits = (runtime: CheckRuntime, network: string, calls: number): number =>
  runtime.client.requestsFor(network, calls)

/** Units left today before the reserve kept for the user's own clicks. */
export function unitsAboveReserve(runtime: CheckRuntime): number {
  const s = runtime.limiters.state()
  return s.leftToday - s.reserve
}

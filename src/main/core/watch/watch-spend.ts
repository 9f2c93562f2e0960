import type { RpcBatchItem } from '@shared/bridge/contract'
import type { ProfileRuntime } from '../profiles/profile-runtime'
import { cheapestCalls } from '../service/cheapest-calls'
import type { RequestOptions, RpcCallSpec } from '../service/service-types'

/** What a check spent, in the service's unit (what its quota counts). */
export interface Spend {
  units: number
}

/** The parts of a runtime a check's calls go through. */
export type CheckRuntime = Pick<ProfileRuntime, 'client' | 'data' | 'limiters' | 'balances'>

/** Where a check's calls go (a runtime's network, with these request options) and what they are charged to. */
export interface CallRoute {
  runtime: CheckRuntime
  network: string
  request: RequestOptions
  spend: Spend
}

/**
 * Sends `calls` the cheapest way in the service's unit (one batch, or single calls where a
 * batch costs one more) and adds what they cost to the route's `spend`,
 * counted as sent (a refused or split batch and its retries included).
 */
export async function sendCalls(route: CallRoute, calls: RpcCallSpec[]): Promise<RpcBatchItem[]> {
  if (calls.length === 0) return []
  const meter = { requests: 0, units: 0 }
  try {
    return await cheapestCalls(route.runtime.client, route.network, calls, { ...route.request, meter })
  } finally {
    route.spend.units += meter.units
  }
}

/** What `calls` RPC calls cost now, sent as `sendCalls` sends them. */
export const rpcUnits = (runtime: CheckRuntime, network: string, calls: number): number =>
  runtime.client.unitsFor(network, calls)

/** Units left today before the reserve kept for the user's own clicks. */
export function unitsAboveReserve(runtime: CheckRuntime): number {
  const s = runtime.limiters.state()
  return s.leftToday - s.reserve
}

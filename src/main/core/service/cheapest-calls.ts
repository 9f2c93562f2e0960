import type { RpcBatchItem } from '@shared/bridge/contract'
import type { ServiceClient } from './service-client'
import type { RequestOptions, RpcCallSpec } from './service-types'

type Client = Pick<ServiceClient, 'rpcCalls' | 'unitsFor'>

/**
 * A few calls sent the way that costs the fewest of the service's units: one batch where it
 * costs no more than the calls alone (per request: 1; per call: N), one request each where a
 * batch costs one more (per call plus one per batch). Answers in call order either way.
 */
export async function cheapestCalls(
  client: Client,
  network: string,
  calls: RpcCallSpec[],
  options: RequestOptions,
): Promise<RpcBatchItem[]> {
  if (calls.length > 1 && client.unitsFor(network, calls.length) > calls.length * client.unitsFor(network, 1))
    return (await Promise.all(calls.map((c) => client.rpcCalls(network, [c], options)))).flat()
  return client.rpcCalls(network, calls, options)
}

/** What `cheapestCalls` of `calls` calls costs now. */
export function cheapestUnits(client: Client, network: string, calls: number): number {
  return Math.min(client.unitsFor(network, calls), calls * client.unitsFor(network, 1))
}

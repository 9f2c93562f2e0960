import type { RpcBatchItem } from '@shared/bridge/contract'
import type { ServiceClient } from '../service/service-client'
import type { RequestOptions, RpcCallSpec } from '../service/service-types'
import {
  ADDRESSES_PER_CALL,
  balanceCall,
  multicallProbe,
  readBalanceCall,
  readMulticallProbe,
  readSingleCalls,
  singleCalls,
} from './balance-calls'
import type { CallRoute } from './call-route'

/** How a network's coin balances are read: one eth_call (two ways), or one call per address. */
export type BalanceRoute = CallRoute | 'single'

/** Balances (null where unreadable this time) and the block they were read at. */
export interface BalanceAnswer {
  head: number | null
  balances: Map<string, bigint | null>
  route: BalanceRoute
}

/** Calls to send (alone or inside a larger batch) and how to read their answers. */
export interface BalancePlan {
  calls: RpcCallSpec[]
  /**
   * Reads the answers to `calls`, in order. `retry` is set when the eth_call was refused:
   * the single calls to send instead (the refusal is remembered: later plans start there).
   */
  read(items: RpcBatchItem[]): BalanceAnswer & { retry: BalancePlan | null }
}

/** Error codes that mean "not now" (rate or credits), not "never here". */
const TRANSIENT = new Set([429, -32005, -32012, -32090, -33000, -33300])

/**
 * Coin balances of many addresses at the price of one call, remembered per network for one
 * profile: whether Multicall3 is at its canonical address (asked once, by an `eth_getCode`
 * riding in the first batch, whose balances come from the deployless call meanwhile) and
 * whether `eth_call` is refused (then one `eth_getBalance` per address, the last resort).
 */
export class CoinBalances {
  readonly #routes = new Map<string, BalanceRoute>()

  route(network: string): BalanceRoute | null {
    return this.#routes.get(network) ?? null
  }

  /** Remembers what a Multicall3 probe that rode in another read's batch answered (`multicallProbe`). */
  noteProbe(network: string, item: RpcBatchItem | undefined): void {
    const present = readMulticallProbe(item)
    if (present !== null && this.#routes.get(network) !== 'single')
      this.#routes.set(network, present ? 'multicall3' : 'deployless')
  }

  /** Calls a read of `addresses` costs now (before a refusal teaches otherwise). */
  callCount(network: string, addresses: number): number {
    const route = this.#routes.get(network)
    if (route === 'single') return addresses + 1
    return Math.max(1, Math.ceil(addresses / ADDRESSES_PER_CALL)) + (route === undefined ? 1 : 0)
  }

  plan(network: string, addresses: readonly string[]): BalancePlan {
    const known = this.#routes.get(network)
    if (known === 'single') return this.#singles(addresses)
    const route: CallRoute = known ?? 'deployless'
    const chunks: string[][] = []
    for (let i = 0; i < addresses.length; i += ADDRESSES_PER_CALL)
      chunks.push(addresses.slice(i, i + ADDRESSES_PER_CALL))
    if (chunks.length === 0) chunks.push([])
    const probe = known === undefined
    const calls = [...(probe ? [multicallProbe] : []), ...chunks.map((c) => balanceCall(route, c))]
    return {
      calls,
      read: (items) => {
        const answers = probe ? items.slice(1) : items
        if (probe) {
          const present = readMulticallProbe(items[0])
          if (present !== null) this.#routes.set(network, present ? 'multicall3' : 'deployless')
        }
        const reads = chunks.map((c, i) => readBalanceCall(route, answers[i], c.length))
        if (reads.some((r) => r === null)) {
          const failed = answers.find((a) => a && !a.ok)
          const transient = failed !== undefined && !failed.ok && TRANSIENT.has(failed.code)
          // Some providers refuse a call without `to`: where Multicall3 is, it reads instead.
          const next = route === 'deployless' && this.#routes.get(network) === 'multicall3' ? 'multicall3' : 'single'
          // A rate or credit refusal says nothing about eth_call: this time only, single calls.
          if (!transient || next === 'multicall3') this.#routes.set(network, next)
          const retry = next === 'multicall3' ? this.plan(network, addresses) : this.#singles(addresses)
          return { head: null, balances: new Map(), route, retry }
        }
        const balances = new Map<string, bigint | null>()
        chunks.forEach((c, i) => c.forEach((a, j) => balances.set(a, reads[i]!.balances[j]!)))
        // Chunks answered at different heads (a block between them): the lowest is true of all logs to it.
        const head = Math.min(...reads.map((r) => r!.head))
        return { head, balances, route, retry: null }
      },
    }
  }

  /** Reads `addresses` on its own (the both-networks card, the height seed). */
  async read(
    client: Pick<ServiceClient, 'rpcCalls'>,
    network: string,
    addresses: readonly string[],
    options: RequestOptions,
  ): Promise<BalanceAnswer> {
    const plan = this.plan(network, addresses)
    const first = plan.read(await client.rpcCalls(network, plan.calls, options))
    if (!first.retry) return first
    return first.retry.read(await client.rpcCalls(network, first.retry.calls, options))
  }

  #singles(addresses: readonly string[]): BalancePlan {
    return {
      calls: singleCalls(addresses),
      read: (items) => {
        const { head, balances } = readSingleCalls(items, addresses.length)
        return {
          head,
          balances: new Map(addresses.map((a, i) => [a, balances[i] ?? null])),
          route: 'single',
          retry: null,
        }
      },
    }
  }
}

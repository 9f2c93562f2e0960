import type { NetworkPresence } from '@shared/bridge/contract'
import type { Address } from '@shared/domain/address'
import { AppError } from '../util/app-error'
import { cheapestCalls } from '../service/cheapest-calls'
import type { ServiceClient } from '../service/service-client'
import type { Clock } from '../util/clock'
import type { SnapshotStore } from './snapshot-store'
import { MAX_SAFE_BIGINT, parseHexQuantity } from '@shared/domain/amount'
import { staleReasonFor } from './provenance'

export interface PresenceOptions {
  snapshots: SnapshotStore
  clock: Pick<Clock, 'now'>
  /** How long an answer is reused without asking again. Default 2 min, like balances. */
  freshMs?: number
}

/** What the check needs of a profile's runtime. */
export interface PresenceRuntime {
  profileId: string
  client: Pick<ServiceClient, 'rpcCalls' | 'unitsFor'>
}

export interface PresenceRequest {
  networks: readonly string[]
  address: Address
  /** Ask again even when a fresh answer is kept. */
  refresh: boolean
  /** Answer from what is kept, of any age, without a request. */
  cacheOnly?: boolean
}

interface Seen {
  at: number
  nativeWei: string | null
  nonce: number | null
}

/**
 * "Both networks side by side": per network, whether an address holds anything and has sent
 * anything: `eth_getBalance` + `eth_getTransactionCount`, two calls (a nonce is not readable
 * by a contract call, so no one-call reader can give both). They go as one JSON-RPC batch
 * where that costs no more than two single calls in the service's unit (per request: 1 for
 * the batch), as two single calls where a batch costs one more (per call plus one per batch)
 * or is refused: a provider without batches still gives the coin balance. Fresh answers are
 * reused; cached balances and pages add what they know for free. The cost of each answer,
 * counted as sent, is part of it, so the view can say so.
 */
export class PresenceChecker {
  readonly #o: PresenceOptions
  readonly #seen = new Map<string, Seen>()

  constructor(options: PresenceOptions) {
    this.#o = options
  }

  async check(runtime: PresenceRuntime, req: PresenceRequest): Promise<NetworkPresence[]> {
    const catalogue = await this.#o.snapshots.catalogue(runtime.profileId)
    return Promise.all(req.networks.map((network) => this.#one(runtime, { ...req, network, catalogue })))
  }

  async #one(
    runtime: PresenceRuntime,
    req: PresenceRequest & { network: string; catalogue: Awaited<ReturnType<SnapshotStore['catalogue']>> },
  ): Promise<NetworkPresence> {
    const { network, address, refresh, catalogue } = req
    const key = `${runtime.profileId}|${network}|${address}`
    const now = this.#o.clock.now()
    const mine = catalogue.filter((e) => e.network === network && e.address === address)
    let tokens: number | null = null
    let cachedTransactions = 0
    for (const entry of mine) {
      const data = await this.#o.snapshots.readEntry(entry)
      if (!data) continue
      if (entry.kind === 'balances')
        tokens = data.items.filter((i) => typeof i?.value === 'string' && i.value !== '0').length
      else cachedTransactions += data.items.length
    }
    const base = { network, tokens, cachedTransactions }
    const seen = this.#seen.get(key)
    // Cache only: the last answer of any age, or what the snapshots know; never a request.
    if (req.cacheOnly && !seen)
      return {
        ...base,
        nativeWei: null,
        nonce: null,
        source: 'none',
        requests: 0,
        fetchedAt: null,
        error: null,
        staleReason: null,
      }
    if (seen && ((!refresh && now - seen.at < (this.#o.freshMs ?? 120_000)) || req.cacheOnly)) {
      return {
        ...base,
        nativeWei: seen.nativeWei,
        nonce: seen.nonce,
        source: 'cache',
        requests: 0,
        fetchedAt: new Date(seen.at).toISOString(),
        error: null,
        staleReason: null,
      }
    }
    const meter = { requests: 0, units: 0 }
    try {
      const calls = [
        { method: 'eth_getBalance', params: [address, 'latest'] },
        { method: 'eth_getTransactionCount', params: [address, 'latest'] },
      ]
      const [balance, count] = await cheapestCalls(runtime.client, network, calls, { priority: 'prefetch', meter })
      const wei = balance?.ok ? parseHexQuantity(balance.result) : null
      const nonce = count?.ok ? parseHexQuantity(count.result, MAX_SAFE_BIGINT) : null
      const fresh: Seen = {
        at: now,
        nativeWei: wei === null ? null : wei.toString(),
        nonce: nonce === null ? null : Number(nonce),
      }
      this.#seen.set(key, fresh)
      return {
        ...base,
        nativeWei: fresh.nativeWei,
        nonce: fresh.nonce,
        source: 'network',
        requests: meter.units,
        fetchedAt: new Date(now).toISOString(),
        error: null,
        staleReason: null,
      }
    } catch (error) {
      const e = error instanceof AppError ? error.toBridge() : { kind: 'internal', message: String(error) }
      // A refused request costs no quota (spec 8); one that went out may have been counted.
      const requests =
        e.kind === 'quota-exhausted' || e.kind === 'rate-limited' || e.kind === 'cancelled' ? 0 : meter.units
      return {
        ...base,
        nativeWei: seen?.nativeWei ?? null,
        nonce: seen?.nonce ?? null,
        source: seen ? 'cache' : 'none',
        requests,
        fetchedAt: seen ? new Date(seen.at).toISOString() : null,
        error: { kind: e.kind, message: e.message },
        // The card kept from the cache stands for this failure (offline by choice included).
        staleReason: seen ? (staleReasonFor(error) ?? null) : null,
      }
    }
  }
}

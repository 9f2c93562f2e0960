import type { RpcBatchItem } from '@shared/bridge/contract'
import type {
  AddressKindView,
  BlockView,
  EntityAsOf,
  EntityCost,
  EntityRead,
  InternalTransfersView,
  ProxySlots,
  ReceiptView,
} from '@shared/bridge/entity-types'
import type { Billing } from '@shared/domain/billing'
import { estimateCost } from '@shared/domain/cost'
import type { Transaction } from '@shared/domain/service-schemas'
import { MemoryCache } from '../data/memory-cache'
import type { SnapshotStore } from '../data/snapshot-store'
import { cheapestCalls, cheapestUnits } from '../service/cheapest-calls'
import type { ServiceClient } from '../service/service-client'
import type { RpcCallSpec, SpendMeter } from '../service/service-types'
import { AppError } from '../util/app-error'
import type { Clock } from '../util/clock'
import {
  codeSize,
  getCodeCall,
  serviceHint,
  SLOT_NAMES,
  slotAddress,
  slotCalls,
  type ServiceHint,
} from './address-kind'
import { readBlock } from './block'
import { valueTransfers } from './call-tree'
import { readReceipt } from './receipt'
import { readTrace, type TracesMemory } from './trace-support'
import type { FinalAnswers } from './final-answers'

/** What the reads need of a profile's runtime. */
export interface EntityRuntime {
  profileId: string
  client: Pick<ServiceClient, 'rpcCalls' | 'unitsFor'>
  limiters: { state(): { leftToday: number; reserve: number; billing?: Billing } }
}

export interface EntityServiceOptions {
  snapshots: Pick<SnapshotStore, 'catalogue' | 'readEntry'>
  /** The chain head the app already knows (the height watcher): no request of its own. */
  headOf: (profileId: string, network: string) => number | null
  /** What the profile learnt of its provider's traces (learnt-limits-store.ts). */
  traces: (profileId: string) => TracesMemory
  clock: Clock
  /** Where final answers are kept across runs (none: this session only). */
  finals?: FinalAnswers
}

/** Blocks below the head after which an answer is final (docs/decisions/entity-reads.md). */
export const FINAL_DEPTH = 64
/** A non-final answer is served from the cache this long, then read again. */
export const UNFINAL_FRESH_MS = 60_000
/** Loaded pages of the address read for the service's word on it. */
const HINT_PAGES = 50
/** Service failures after which a cached answer of any age is shown instead. */
const DEGRADED = new Set(['offline', 'timeout', 'server', 'rate-limited', 'quota-exhausted'])

/** An answer as cached: its fields, whether final, and when it was read. */
type Kept = { final: boolean; fetchedAt: number }
type Fresh<V> = Omit<V, keyof EntityAsOf> & { final: boolean }

/**
 * What an address, a transaction and a block are, from the RPC endpoint (issue 40): each read
 * through the profile's client (its limiter, its unit), costed before it is sent, cached with
 * when it was read; a final answer (its block 64 deep) is never asked for again, and a cached
 * one of any age is shown when the service fails.
 */
export class EntityService {
  readonly #o: EntityServiceOptions
  readonly #cache = new MemoryCache<Kept & { value: unknown }>(5000)

  constructor(options: EntityServiceOptions) {
    this.#o = options
  }

  async addressKind(rt: EntityRuntime, network: string, address: string, refresh = false): Promise<AddressKindView> {
    return this.#read<AddressKindView>(rt, { network, key: `address|${address}`, refresh }, async (meter) => {
      const hint = await this.#hint(rt.profileId, network, address)
      const base = { address, name: hint?.name ?? null, verified: hint?.verified ?? null, proxy: null }
      const known = { creator: hint?.creator ?? null, creationTx: hint?.creationTx ?? null }
      if (hint?.isContract != null && !refresh)
        return {
          ...base,
          ...known,
          kind: hint.isContract ? 'contract' : 'account',
          from: 'service',
          codeSize: null,
          final: hint.isContract,
        }
      const [item] = await cheapestCalls(rt.client, network, [getCodeCall(address)], { priority: 'user', meter })
      const size = codeSize(answer(item, 'eth_getCode', address), address)
      // Code changes only by self-destruct: a contract is kept for good, an account may become one.
      return {
        ...base,
        ...known,
        kind: size > 0 ? 'contract' : 'account',
        from: 'rpc',
        codeSize: size,
        final: size > 0,
      }
    })
  }

  /** The EIP-1967 slots of an address (implementation, admin, beacon) in one costed read. */
  async proxySlots(rt: EntityRuntime, network: string, address: string): Promise<ProxySlots & EntityAsOf> {
    return this.#read<ProxySlots & EntityAsOf>(
      rt,
      { network, key: `proxy|${address}`, refresh: true },
      async (meter) => {
        const items = await cheapestCalls(rt.client, network, slotCalls(address), { priority: 'user', meter })
        const slots = Object.fromEntries(
          SLOT_NAMES.map((name, i) => [
            name,
            slotAddress(answer(items[i], 'eth_getStorageAt', address), name, address),
          ]),
        ) as unknown as ProxySlots
        return { ...slots, final: false }
      },
    )
  }

  async receipt(rt: EntityRuntime, network: string, hash: string, refresh = false): Promise<ReceiptView> {
    return this.#read<ReceiptView>(rt, { network, key: `receipt|${hash}`, refresh }, async (meter) => {
      const [item] = await this.#send(rt, network, { method: 'eth_getTransactionReceipt', params: [hash] }, meter)
      const receipt = readReceipt(answer(item, 'eth_getTransactionReceipt', hash), hash, network)
      return { ...receipt, final: this.#isFinal(rt.profileId, network, receipt.block) }
    })
  }

  async internalTransfers(
    rt: EntityRuntime,
    network: string,
    hash: string,
    refresh = false,
  ): Promise<InternalTransfersView> {
    return this.#read<InternalTransfersView>(rt, { network, key: `trace|${hash}`, refresh }, async (meter) => {
      const memory = this.#o.traces(rt.profileId)
      const send = async (call: RpcCallSpec, m: SpendMeter): Promise<RpcBatchItem> =>
        (await this.#send(rt, network, call, m))[0]!
      const outcome = await readTrace({ send, memory, network, hash, meter, retry: refresh })
      if (outcome.dialect === null)
        return { hash, dialect: null, calls: 0, transfers: [], refused: outcome.refused, final: false }
      const block = (this.#cache.get(this.#key(rt, network, `receipt|${hash}`))?.value as ReceiptView | undefined)
        ?.block
      return {
        hash,
        dialect: outcome.dialect,
        calls: outcome.frames.length,
        transfers: valueTransfers(outcome.frames).map(({ frame: _, value, ...t }) => ({
          ...t,
          value: value.toString(),
        })),
        refused: null,
        final: block !== undefined && this.#isFinal(rt.profileId, network, block),
      }
    })
  }

  /**
   * A transaction's trace as kept (memory, or on disk when final), of any age, with no request:
   * null where it was never traced or the provider refused. A mined transaction's trace does not change.
   */
  async keptTrace(rt: EntityRuntime, network: string, hash: string): Promise<InternalTransfersView | null> {
    const key = this.#key(rt, network, `trace|${hash}`)
    const kept = this.#cache.get(key)?.value ?? (await this.#saved(rt.profileId, key))
    if (!kept) return null
    const view = this.#view<InternalTransfersView>(kept, network, 'cache', { requests: 0, units: 0 })
    return view.dialect === null ? null : view
  }

  /** A block's header and transaction hashes; with `full`, its transaction objects too (a separate read). */
  async block(
    rt: EntityRuntime,
    network: string,
    number: number,
    { full = false, refresh = false }: { full?: boolean; refresh?: boolean } = {},
  ): Promise<BlockView> {
    const key = `block${full ? '-full' : ''}|${number}`
    return this.#read<BlockView>(rt, { network, key, refresh }, async (meter) => {
      const call = { method: 'eth_getBlockByNumber', params: [`0x${number.toString(16)}`, full] }
      const [item] = await this.#send(rt, network, call, meter)
      const block = readBlock(answer(item, 'eth_getBlockByNumber', String(number)), number, full, network)
      return { ...block, final: this.#isFinal(rt.profileId, network, number) }
    })
  }

  /** What a read costs now, before it is sent: 0 when its answer is cached (or the service already said). */
  async cost(rt: EntityRuntime, network: string, read: EntityRead, id: string): Promise<EntityCost> {
    const limiter = rt.limiters.state()
    const key = read === 'block' || read === 'block-full' ? `${read}|${Number(id)}` : `${read}|${id.toLowerCase()}`
    const one = cheapestUnits(rt.client, network, read === 'proxy' ? 3 : 1)
    // A contract call (`call`) is never cached: it always costs one call.
    let units = one
    let upTo = one
    const cacheKey = this.#key(rt, network, key)
    const cached =
      read !== 'proxy' &&
      read !== 'call' &&
      (this.#cached(cacheKey, false) ?? (await this.#saved(rt.profileId, cacheKey)))
    if (cached) units = upTo = 0
    else if (read === 'address' && (await this.#hint(rt.profileId, network, id.toLowerCase()))?.isContract != null)
      units = upTo = 0
    else if (read === 'trace') {
      const learnt = this.#o.traces(rt.profileId).load(network)
      if (learnt?.dialect === null) units = upTo = 0
      else if (!learnt) upTo = 2 * one // the first method may be refused
    }
    return { ...estimateCost(units, limiter), cached: units === 0 && upTo === 0, upTo }
  }

  /** Forgets what was read for a profile (removed, or re-pointed at another service); the memory cache is cleared whole. */
  async forget(profileId: string): Promise<void> {
    this.#cache.clear()
    await this.#o.finals?.forget(profileId)
  }

  #send(rt: EntityRuntime, network: string, call: RpcCallSpec, meter: SpendMeter): Promise<RpcBatchItem[]> {
    return cheapestCalls(rt.client, network, [call], { priority: 'user', meter })
  }

  #key(rt: EntityRuntime, network: string, key: string): string {
    return `${rt.profileId}|${network}|${key}`
  }

  #cached(key: string, refresh: boolean): (Kept & { value: unknown }) | null {
    const hit = this.#cache.get(key)?.value
    if (!hit) return null
    if (hit.final || (!refresh && this.#o.clock.now() - hit.fetchedAt < UNFINAL_FRESH_MS)) return hit
    return null
  }

  /** One read through the cache: `entry.key` names it within the network; `refresh` skips an unfinal copy. */
  async #read<V extends EntityAsOf>(
    rt: EntityRuntime,
    entry: { network: string; key: string; refresh: boolean },
    fetch: (meter: SpendMeter) => Promise<Fresh<V>>,
  ): Promise<V> {
    const { network, refresh } = entry
    const key = this.#key(rt, network, entry.key)
    const hit = this.#cached(key, refresh) ?? (await this.#saved(rt.profileId, key))
    if (hit) return this.#view<V>(hit, network, 'cache', { requests: 0, units: 0 })
    const meter: SpendMeter = { requests: 0, units: 0 }
    let fresh: Fresh<V>
    try {
      fresh = await fetch(meter)
    } catch (error) {
      const stale = this.#cache.get(key)?.value
      if (stale && error instanceof AppError && DEGRADED.has(error.kind))
        return this.#view<V>(stale, network, 'cache', meter)
      throw error
    }
    const kept = { value: fresh, final: fresh.final, fetchedAt: this.#o.clock.now() }
    this.#cache.set(key, kept, kept.fetchedAt)
    if (kept.final) await this.#o.finals?.put(rt.profileId, key, fresh, kept.fetchedAt)
    return this.#view<V>(kept, network, 'network', meter)
  }

  #view<V extends EntityAsOf>(
    kept: Kept & { value: unknown },
    network: string,
    source: 'network' | 'cache',
    cost: SpendMeter,
  ): V {
    const fields = kept.value as Fresh<V>
    return {
      ...fields,
      network,
      fetchedAt: new Date(kept.fetchedAt).toISOString(),
      source,
      final: kept.final,
      cost: { ...cost },
    } as unknown as V
  }

  /** A final answer kept on disk by an earlier run, now in the memory cache too. */
  async #saved(profileId: string, key: string): Promise<(Kept & { value: unknown }) | null> {
    const saved = await this.#o.finals?.get(profileId, key)
    if (!saved) return null
    const kept = { value: saved.value, final: true, fetchedAt: saved.fetchedAt }
    this.#cache.set(key, kept, kept.fetchedAt)
    return kept
  }

  #isFinal(profileId: string, network: string, block: number): boolean {
    const head = this.#o.headOf(profileId, network)
    return head !== null && head - block >= FINAL_DEPTH
  }

  async #hint(profileId: string, network: string, address: string): Promise<ServiceHint | null> {
    const entries = (await this.#o.snapshots.catalogue(profileId))
      .filter((e) => e.kind === 'page' && e.network === network && e.address === address)
      .slice(0, HINT_PAGES)
    const txs: Transaction[] = []
    for (const entry of entries) {
      const page = await this.#o.snapshots.readEntry(entry)
      if (page && 'nextCursor' in page) txs.push(...page.items)
    }
    return serviceHint(txs, address)
  }
}

/** The result of one call, or its JSON-RPC error as an `rpc` AppError naming the call. */
function answer(item: RpcBatchItem | undefined, method: string, of: string): unknown {
  if (!item) throw new AppError('protocol', `${method} of ${of} got no answer.`)
  if (item.ok) return item.result
  throw new AppError('rpc', `${method} of ${of} failed: ${item.message.slice(0, 200)} (JSON-RPC error ${item.code})`, {
    code: item.code,
  })
}

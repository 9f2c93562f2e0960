import type { Priority } from '@shared/bridge/contract'
import { ZERO_ADDRESS } from '@shared/domain/contracts'
import type { BalanceItem, ParsedItems } from '@shared/domain/service-schemas'
import type { ServiceClient } from '../service/service-client'
import type { Clock } from '../util/clock'
import type { Logger } from '../util/logger'
import { balancesKey, pageKey, type Freshness } from './freshness'
import type { MemoryCache } from './memory-cache'
import type { PageValue } from './page-stitch'
import { MAX_SIBLINGS, Revalidator, type Revalidation, type RevalidationTarget } from './revalidate'

export interface RevalidationStampsOptions {
  client: ServiceClient
  clock: Clock
  fresh: Freshness
  /** The data service's caches: a stamp's data, its age and (balances) whether it lists the coin. */
  balances: MemoryCache<ParsedItems<BalanceItem>>
  pages: MemoryCache<PageValue>
  onHead?: (network: string, head: number, atMs: number) => void
  onPoll?: (network: string, head: number, gasPriceWei: string | null, atMs: number) => void
  log?: Logger
}

/**
 * Per cache key of balances and first pages fetched this session: the block the data was
 * current at (a lower bound) and when a revalidation last confirmed it unchanged; and the
 * revalidation itself (data/revalidate.ts), which keeps stale data that nothing has moved.
 */
export class RevalidationStamps {
  readonly #o: RevalidationStampsOptions
  readonly #revalidator: Revalidator
  readonly #stamps = new Map<string, { since: number; checkedAt: number | null }>()
  readonly #reported = new WeakSet<object>()

  constructor(options: RevalidationStampsOptions) {
    this.#o = options
    this.#revalidator = new Revalidator(options.client)
  }

  clear(): void {
    this.#stamps.clear()
  }

  /** A fresh fetch: the block it is current at (unknown: it is never revalidated, only refetched). */
  stamp(key: string, since: number | undefined): void {
    // Deleted first, so a refetched key moves to the end: the map stays in fetch order.
    this.#stamps.delete(key)
    if (since !== undefined) this.#stamps.set(key, { since, checkedAt: null })
    // Bounded like the caches: oldest first out.
    if (this.#stamps.size > 3000) this.#stamps.delete(this.#stamps.keys().next().value!)
  }

  /** When cached data was last known current: its fetch, or a later revalidation. */
  validFrom(key: string, fetchedAt: number): number {
    return Math.max(fetchedAt, this.#stamps.get(key)?.checkedAt ?? 0)
  }

  checkedAt(key: string): number | null {
    return this.#stamps.get(key)?.checkedAt ?? null
  }

  /**
   * Stale balances or first page: asks the service whether the address changed since the
   * block the data was current at (one batch for both, data/revalidate.ts). True keeps the
   * cache, now confirmed (`checkedAt`); anything else (changed, unknown, no batches, no known
   * block, older than `revalidatedMaxMs`) refetches. A confirmation covers both of the
   * address's entries whose block is no older than the one asked about.
   */
  async revalidated(
    entry: { key: string; fetchedAt: number; network: string; address: string },
    priority: Priority,
  ): Promise<boolean> {
    const { key, fetchedAt, network, address } = entry
    const now = this.#o.clock.now()
    if (
      !this.#stamps.has(key) ||
      now - fetchedAt >= this.#o.fresh.revalidatedMaxMs ||
      !this.#revalidator.usable(network)
    )
      return false
    const target = this.#target(network, address)!
    // The other addresses of this network with data on hand ride along, most recently fetched
    // first: an analyst going round a list then finds them checked (`firstPageMs`).
    const others: RevalidationTarget[] = []
    for (const k of [...this.#stamps.keys()].reverse()) {
      if (others.length >= MAX_SIBLINGS) break
      const [, net, other] = k.split('|')
      if (net !== network || other === address || !other || others.some((o) => o.address === other)) continue
      const t = this.#target(network, other, now)
      if (t) others.push(t)
    }
    const answer = await this.#revalidator.check(network, [target, ...others], { priority })
    const at = this.#o.clock.now()
    // Balances and first page share one answer: it is one poll.
    if (answer.head !== null && !this.#reported.has(answer)) {
      this.#reported.add(answer)
      if (this.#o.onPoll) this.#o.onPoll(network, answer.head, answer.gasPriceWei, at)
      else this.#o.onHead?.(network, answer.head, at)
    }
    const result = answer.results[0]!
    if (result.kind === 'unknown')
      this.#o.log?.info(
        `${network} ${address.slice(0, 8)}…: revalidation could not tell (${result.reason}); refetching`,
      )
    answer.targets.forEach((t, i) => this.#apply(network, t, answer.results[i]!, at))
    return this.#stamps.get(key)?.checkedAt === at
  }

  /**
   * What to ask about an address: the block its balances and first page were both current at.
   * Null when it has no stamped data, or (with `now`) data past `revalidatedMaxMs` or already
   * checked within the freshness window.
   */
  #target(network: string, address: string, now?: number): RevalidationTarget | null {
    const keys = [balancesKey(network, address), pageKey(network, address, null)] as const
    const stamps = keys.map((k) => this.#stamps.get(k)).filter((s) => s !== undefined)
    if (stamps.length === 0) return null
    if (now !== undefined) {
      const fresh = this.#o.fresh
      const fetched = [this.#o.balances.get(keys[0])?.fetchedAt ?? 0, this.#o.pages.get(keys[1])?.fetchedAt ?? 0]
      if (Math.max(...fetched) === 0 || now - Math.max(...fetched) >= fresh.revalidatedMaxMs) return null
      const validFrom = Math.min(...keys.map((k, i) => this.validFrom(k, fetched[i]!)))
      if (now - validFrom < Math.min(fresh.balancesMs, fresh.firstPageMs) / 2) return null
    }
    return { address, since: Math.min(...stamps.map((s) => s.since)) }
  }

  /**
   * A revalidation's answer for one address: unchanged confirms its balances and first page
   * (`checkedAt`); changed confirms only balances that a coin-only change leaves alone (token
   * balances move only with token transfers, unless the list carries the coin itself) and drops
   * the rest's stamps, so that the next look refetches without asking again; unknown changes
   * nothing. Only stamps no older than the block asked about are touched.
   */
  #apply(network: string, target: RevalidationTarget, result: Revalidation, at: number): void {
    if (result.kind === 'unknown') return
    const balances = balancesKey(network, target.address)
    for (const k of [balances, pageKey(network, target.address, null)]) {
      const s = this.#stamps.get(k)
      if (!s || s.since < target.since) continue
      const confirmed = result.kind === 'unchanged' || (k === balances && !result.tokens && this.#keepsOnCoinChange(k))
      if (confirmed) s.checkedAt = at
      else this.#stamps.delete(k)
    }
  }

  /** Whether cached balances survive a coin-only change: not when they list the coin as a pseudo-token. */
  #keepsOnCoinChange(balancesKey: string): boolean {
    const cached = this.#o.balances.get(balancesKey)
    return cached
      ? !cached.value.items.some((item) => NATIVE_PSEUDO_TOKENS.has(item.token.address.toLowerCase()))
      : false
  }
}

/** Token addresses some services give the chain's coin when they list it among token balances. */
const NATIVE_PSEUDO_TOKENS = new Set([ZERO_ADDRESS, '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'])

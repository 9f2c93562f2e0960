import type { BalancesView, DataSource, Priority, TransactionsPage } from '@shared/bridge/contract'
import { checksumAddress } from '@shared/domain/address'
import type { BalanceItem, Transaction, ParsedItems } from '@shared/domain/service-schemas'
import { AppError } from '../util/app-error'
import type { Logger } from '../util/logger'
import { decodeCursor, encodeCursor, type CursorSecrets } from '../service/cursor'
import { InflightWork } from '../service/dedupe'
import type { ServiceClient } from '../service/service-client'
import { systemClock, type Clock } from '../util/clock'
import { withDefaults } from '../util/options'
import { balancesKey, DEFAULT_FRESHNESS, pageKey, type Freshness } from './freshness'
import { MemoryCache } from './memory-cache'
import { stitchFirstPage, type PageValue } from './page-stitch'
import { PagingWalks } from './paging-walks'
import { provenance, staleReasonFor, type Stale } from './provenance'
import { RevalidationStamps } from './revalidation-stamps'
import type { BalancesSnapshot, PageSnapshot, SnapshotStore } from './snapshot-store'

export interface DataServiceOptions {
  profileId: string
  client: ServiceClient
  snapshots: SnapshotStore
  clock?: Clock
  freshness?: Partial<Freshness>
  /** A head seen for free in a transactions answer (block + confirmations). */
  onHead?: (network: string, head: number, atMs: number) => void
  /**
   * A head and gas price a revalidation batch asked the RPC endpoint for: as good as a height
   * poll (HeightWatcher.polled). Without it, the head goes to `onHead`.
   */
  onPoll?: (network: string, head: number, gasPriceWei: string | null, atMs: number) => void
  /** The best known head of a network, to age cached confirmations. */
  headOf?: (network: string) => number | null
  log?: Logger
  /** Registered keys: a `next_page_params` field that holds one never enters a cursor. */
  secrets?: CursorSecrets
}

export interface DataRequest {
  network: string
  /** Lowercase, already validated. */
  address: string
  priority: Priority
  scope?: string
  refresh: boolean
}

/**
 * Data answers for one profile: fresh cache → in-flight de-dupe → service client (limiter) →
 * cache and snapshot; on a network failure or an exhausted quota, the last snapshot, marked.
 */
export class DataService {
  readonly #o: DataServiceOptions
  readonly #clock: Clock
  readonly #fresh: Freshness
  readonly #inflight = new InflightWork()
  readonly #balances = new MemoryCache<ParsedItems<BalanceItem>>(1000)
  readonly #pages = new MemoryCache<PageValue>(2000)
  /** Per network, the highest head a transactions answer reported (the indexer's head). */
  readonly #indexerHead = new Map<string, number>()
  readonly #stamps: RevalidationStamps
  readonly #walks: PagingWalks

  constructor(options: DataServiceOptions) {
    this.#o = options
    this.#clock = options.clock ?? systemClock
    this.#fresh = withDefaults(DEFAULT_FRESHNESS, options.freshness)
    this.#stamps = new RevalidationStamps({
      client: options.client,
      clock: this.#clock,
      fresh: this.#fresh,
      balances: this.#balances,
      pages: this.#pages,
      onHead: options.onHead,
      onPoll: options.onPoll,
      log: options.log,
    })
    this.#walks = new PagingWalks(options.log)
  }

  cancelScope(scope: string): number {
    return this.#inflight.cancelScope(scope)
  }

  dispose(): void {
    this.#inflight.cancelAll('The profile was closed.')
  }

  /** Forget cached answers (the profile's addresses changed). Snapshots stay as history. */
  clearCache(): void {
    this.#balances.clear()
    this.#pages.clear()
    this.#stamps.clear()
  }

  async balances(req: DataRequest & { cacheOnly?: boolean }): Promise<BalancesView> {
    const { network, address } = req
    const key = balancesKey(network, address)
    const view = (
      parsed: ParsedItems<BalanceItem>,
      fetchedAt: number,
      source: DataSource,
      staleReason: Stale,
    ): BalancesView => ({
      network,
      address: checksumAddress(address),
      items: parsed.items,
      unreadable: parsed.unreadable,
      ...provenance(source, fetchedAt, staleReason, source === 'cache' ? this.#stamps.checkedAt(key) : null),
    })
    if (req.cacheOnly) {
      // What a view shows at once, of any age, while the live answer is on its way (or fails).
      const mem = this.#balances.get(key)
      if (mem) return view(mem.value, mem.fetchedAt, 'cache', null)
      const saved = await this.#o.snapshots.readBalances(this.#o.profileId, network, address)
      if (saved)
        return view({ items: saved.items, unreadable: saved.unreadable ?? [] }, saved.fetchedAt, 'snapshot', null)
      throw new AppError('not-found', 'No balances of this address are cached.')
    }
    if (!req.refresh) {
      const hit = await this.#freshBalances(key, network, address)
      if (hit) return view({ items: hit.items, unreadable: hit.unreadable ?? [] }, hit.fetchedAt, 'cache', null)
      const stale = this.#balances.get(key)
      if (
        stale &&
        (await this.#stamps.revalidated({ key, fetchedAt: stale.fetchedAt, network, address }, req.priority))
      )
        return view(stale.value, stale.fetchedAt, 'cache', null)
    }
    return this.#inflight.run(key, req, async (ctx) => {
      try {
        // The balances reflect at least the indexer's head known before they were asked for.
        const since = this.#indexerHead.get(network)
        const answer = await this.#o.client.data.balances(network, address, {
          priority: ctx.priority,
          signal: ctx.signal,
        })
        const fetchedAt = this.#clock.now()
        const parsed = { items: answer.items, unreadable: answer.unreadable }
        this.#balances.set(key, parsed, fetchedAt)
        this.#stamps.stamp(key, since)
        void this.#o.snapshots.writeBalances(this.#o.profileId, network, address, { fetchedAt, ...parsed })
        return view(parsed, fetchedAt, 'network', null)
      } catch (error) {
        const reason = staleReasonFor(error)
        if (reason === undefined) throw error
        const saved =
          this.#balances.get(key) ?? (await this.#o.snapshots.readBalances(this.#o.profileId, network, address))
        if (!saved) throw error
        return view(
          'value' in saved ? saved.value : { items: saved.items, unreadable: saved.unreadable ?? [] },
          saved.fetchedAt,
          'snapshot',
          reason,
        )
      }
    })
  }

  async transactions(req: DataRequest & { cursor: string | null; cacheOnly?: boolean }): Promise<TransactionsPage> {
    const { network, address, cursor } = req
    const params = cursor === null ? null : decodeCursor(cursor)
    const key = pageKey(network, address, cursor)
    const maxAge = cursor === null ? this.#fresh.firstPageMs : this.#fresh.laterPageMs
    const view = (page: PageValue, fetchedAt: number, source: DataSource, staleReason: Stale): TransactionsPage => {
      const stopped = this.#walks.guard(network, address, cursor, page)
      return {
        network,
        address: checksumAddress(address),
        cursor,
        items: source === 'network' ? page.items : this.#aged(network, page.items),
        unreadable: page.unreadable ?? [],
        nextCursor: stopped ? null : page.nextCursor,
        ...(stopped ? { pagingStopped: stopped } : {}),
        ...provenance(source, fetchedAt, staleReason, source === 'cache' ? this.#stamps.checkedAt(key) : null),
      }
    }
    if (req.cacheOnly) {
      // The analyst views widen to everything cached for an address without spending quota.
      const mem = this.#pages.get(key)
      if (mem) return view(mem.value, mem.fetchedAt, 'cache', null)
      const saved = await this.#o.snapshots.readPage(this.#o.profileId, network, address, cursor)
      if (saved) return view(saved, saved.fetchedAt, 'snapshot', null)
      throw new AppError('not-found', 'This page of transactions is not cached.')
    }
    if (!req.refresh) {
      const hit = this.#pages.get(key)
      if (hit && this.#clock.now() - this.#stamps.validFrom(key, hit.fetchedAt) < maxAge)
        return view(hit.value, hit.fetchedAt, 'cache', null)
      if (
        hit &&
        cursor === null &&
        (await this.#stamps.revalidated({ key, fetchedAt: hit.fetchedAt, network, address }, req.priority))
      )
        return view(hit.value, hit.fetchedAt, 'cache', null)
      if (!hit) {
        const saved = await this.#o.snapshots.readPage(this.#o.profileId, network, address, cursor)
        if (saved && this.#clock.now() - saved.fetchedAt < maxAge) {
          this.#pages.set(key, saved, saved.fetchedAt)
          return view(saved, saved.fetchedAt, 'cache', null)
        }
      }
    }
    return this.#inflight.run(key, req, async (ctx) => {
      try {
        const answer = await this.#o.client.data.transactions(network, address, params, {
          priority: ctx.priority,
          signal: ctx.signal,
        })
        const fetchedAt = this.#clock.now()
        const fresh: PageValue = {
          items: answer.items,
          unreadable: answer.unreadable,
          nextCursor: answer.next_page_params ? encodeCursor(answer.next_page_params, this.#o.secrets) : null,
        }
        const page = cursor === null ? stitchFirstPage(fresh, this.#pages.get(key)?.value) : fresh
        this.#pages.set(key, page, fetchedAt)
        void this.#o.snapshots.writePage(
          { profileId: this.#o.profileId, network: network, address: address, cursor: cursor },
          { fetchedAt, ...page },
        )
        const head = this.#reportHead(network, answer.items, fetchedAt)
        // The newest page is current at least at the head its own confirmations tell.
        if (cursor === null) this.#stamps.stamp(key, head ?? undefined)
        return view(page, fetchedAt, 'network', null)
      } catch (error) {
        const reason = staleReasonFor(error)
        if (reason === undefined) throw error
        const mem = this.#pages.get(key)
        const saved: PageSnapshot | null = mem
          ? { fetchedAt: mem.fetchedAt, ...mem.value }
          : await this.#o.snapshots.readPage(this.#o.profileId, network, address, cursor)
        if (!saved) throw error
        return view(saved, saved.fetchedAt, 'snapshot', reason)
      }
    })
  }

  async #freshBalances(key: string, network: string, address: string): Promise<BalancesSnapshot | null> {
    const now = this.#clock.now()
    const hit = this.#balances.get(key)
    if (hit)
      return now - this.#stamps.validFrom(key, hit.fetchedAt) < this.#fresh.balancesMs
        ? { fetchedAt: hit.fetchedAt, ...hit.value }
        : null
    const saved = await this.#o.snapshots.readBalances(this.#o.profileId, network, address)
    if (!saved) return null
    this.#balances.set(key, { items: saved.items, unreadable: saved.unreadable ?? [] }, saved.fetchedAt)
    return now - saved.fetchedAt < this.#fresh.balancesMs ? saved : null
  }

  /** Spec 2.3: confirmations = blocks added since the transaction's block, so the head is block + confirmations. */
  #reportHead(network: string, items: Transaction[], atMs: number): number | null {
    let head = -1
    // A pending transaction has no block: it says nothing about the head.
    for (const tx of items) if (tx.block !== null) head = Math.max(head, tx.block + tx.confirmations)
    if (head < 0) return null
    this.#indexerHead.set(network, Math.max(head, this.#indexerHead.get(network) ?? 0))
    this.#o.onHead?.(network, head, atMs)
    return head
  }

  /** Cached confirmations grow with the chain; recompute them from the best known head. */
  #aged(network: string, items: Transaction[]): Transaction[] {
    const head = this.#o.headOf?.(network)
    if (head === null || head === undefined) return items
    return items.map((tx) =>
      tx.block !== null && head - tx.block > tx.confirmations ? { ...tx, confirmations: head - tx.block } : tx,
    )
  }
}

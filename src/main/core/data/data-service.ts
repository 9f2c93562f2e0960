import type { BalancesView, DataSource, Priority, Provenance, TransactionsPage } from '../../../shared/bridge/contract'
import { checksumAddress } from '../../../shared/domain/address'
import type { BalanceItem, Transaction, ParsedItems } from '../../../shared/domain/service-schemas'
import { AppError } from '../util/app-error'
import type { Logger } from '../util/logger'
import { decodeCursor, encodeCursor, type CursorParams, type CursorSecrets } from '../service/cursor'
import { checkPage, newPagingWalk, type PagingWalk } from '../../../shared/domain/paging-guard'
import { InflightWork } from '../service/dedupe'
import type { ServiceClient } from '../service/service-client'
import { systemClock, type Clock } from '../util/clock'
import { MemoryCache } from './memory-cache'
import type { BalancesSnapshot, PageSnapshot, SnapshotStore } from './snapshot-store'
import { withDefaults } from '../util/options'
import { MAX_SIBLINGS, Revalidator, type Revalidation, type RevalidationTarget } from './revalidate'
import { ZERO_ADDRESS } from '../../../shared/domain/contracts'

/** How long an answer is served without asking again (`refresh` always asks). */
export interface Freshness {
  /**
   * Default 5 min: balances move with every transfer. The spec leaves how fresh the service's
   * own answers are unshown; at 1,000 requests a day (one every 86 s), an analyst going round a
   * handful of addresses gets their data checked (data/revalidate.ts, one request for up to five
   * addresses) and then served for this long with its age shown, and Refresh always asks.
   */
  balancesMs: number
  /** Default 5 min: the newest page grows with new transactions (see `balancesMs`). */
  firstPageMs: number
  /**
   * Default 24 h: a page behind a cursor lists older, settled transactions; only their
   * `confirmations` age, and those are recomputed from the live height when served.
   */
  laterPageMs: number
  /**
   * Default 1 h: how long after its fetch stale balances or a first page may still be kept by
   * revalidation (data/revalidate.ts) instead of refetched. It bounds what a revalidation cannot
   * see (a zero-value, log-less transaction to the address) to this age.
   */
  revalidatedMaxMs: number
}

/** Cache keys: an address's balances, and a page of its transactions (`null`: the first page). */
const balancesKey = (network: string, address: string): string => `b|${network}|${address}`
const pageKey = (network: string, address: string, cursor: string | null): string =>
  `t|${network}|${address}|${cursor ?? ''}`

export const DEFAULT_FRESHNESS: Freshness = {
  balancesMs: 300_000,
  firstPageMs: 300_000,
  laterPageMs: 24 * 3600_000,
  revalidatedMaxMs: 3600_000,
}

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

type Stale = Provenance['staleReason']

/** Errors after which a saved snapshot is shown instead, and how the view is marked. */
function staleReasonFor(error: unknown): Stale | undefined {
  if (!(error instanceof AppError)) return undefined
  switch (error.kind) {
    case 'offline':
    case 'timeout':
    case 'server':
      return 'offline'
    case 'quota-exhausted':
      return 'quota'
    case 'rate-limited':
      return 'rate-limited'
    default:
      return undefined
  }
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
  readonly #revalidator: Revalidator
  /** Per network, the highest head a transactions answer reported (the indexer's head). */
  readonly #indexerHead = new Map<string, number>()
  /**
   * Per cache key of balances and first pages fetched this session: the block the data was
   * current at (a lower bound) and when a revalidation last confirmed it unchanged.
   */
  readonly #stamps = new Map<string, { since: number; checkedAt: number | null }>()
  readonly #reported = new WeakSet<object>()
  /** The walk each handed-out cursor belongs to (paging-guard.ts), newest last; bounded. */
  readonly #walks = new Map<string, PagingWalk>()

  constructor(options: DataServiceOptions) {
    this.#o = options
    this.#clock = options.clock ?? systemClock
    this.#fresh = withDefaults(DEFAULT_FRESHNESS, options.freshness)
    this.#revalidator = new Revalidator(options.client)
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

  async balances(req: DataRequest): Promise<BalancesView> {
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
      ...provenance(source, fetchedAt, staleReason, source === 'cache' ? this.#checkedAt(key) : null),
    })
    if (!req.refresh) {
      const hit = await this.#freshBalances(key, network, address)
      if (hit) return view({ items: hit.items, unreadable: hit.unreadable ?? [] }, hit.fetchedAt, 'cache', null)
      const stale = this.#balances.get(key)
      if (stale && (await this.#revalidated(key, stale.fetchedAt, network, address, req.priority)))
        return view(stale.value, stale.fetchedAt, 'cache', null)
    }
    return this.#inflight.run(key, req, async (ctx) => {
      try {
        // The balances reflect at least the indexer's head known before they were asked for.
        const since = this.#indexerHead.get(network)
        const answer = await this.#o.client.balances(network, address, { priority: ctx.priority, signal: ctx.signal })
        const fetchedAt = this.#clock.now()
        const parsed = { items: answer.items, unreadable: answer.unreadable }
        this.#balances.set(key, parsed, fetchedAt)
        this.#stamp(key, since)
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
      const stopped = this.#guard(network, address, cursor, page)
      return {
        network,
        address: checksumAddress(address),
        cursor,
        items: source === 'network' ? page.items : this.#aged(network, page.items),
        unreadable: page.unreadable ?? [],
        nextCursor: stopped ? null : page.nextCursor,
        ...(stopped ? { pagingStopped: stopped } : {}),
        ...provenance(source, fetchedAt, staleReason, source === 'cache' ? this.#checkedAt(key) : null),
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
      if (hit && this.#clock.now() - this.#validFrom(key, hit.fetchedAt) < maxAge)
        return view(hit.value, hit.fetchedAt, 'cache', null)
      if (hit && cursor === null && (await this.#revalidated(key, hit.fetchedAt, network, address, req.priority)))
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
        const answer = await this.#o.client.transactions(network, address, params, {
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
        void this.#o.snapshots.writePage(this.#o.profileId, network, address, cursor, { fetchedAt, ...page })
        const head = this.#reportHead(network, answer.items, fetchedAt)
        // The newest page is current at least at the head its own confirmations tell.
        if (cursor === null) this.#stamp(key, head ?? undefined)
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

  /**
   * The paging guard (shared/domain/paging-guard.ts) on every page handed out, cached or not:
   * a walk starts at the first page and follows the cursors this service handed out. A cursor
   * from before a restart starts a walk of its own.
   */
  #guard(
    network: string,
    address: string,
    cursor: string | null,
    page: { items: Transaction[]; nextCursor: string | null },
  ): string | null {
    const key = (c: string): string => `${network}|${address}|${c}`
    const walk = (cursor !== null ? this.#walks.get(key(cursor)) : undefined) ?? newPagingWalk()
    if (walk.position === null && cursor !== null) walk.position = cursorPosition(decodeCursor(cursor))
    const next = page.nextCursor
    const stopped = checkPage(walk, {
      cursor,
      nextCursor: next,
      itemIds: page.items.map((tx) => tx.hash),
      nextPosition: next ? cursorPosition(decodeCursor(next)) : null,
    })
    if (!stopped && next !== null) {
      this.#walks.delete(key(next))
      this.#walks.set(key(next), walk)
      // Oldest first out: a walk is only needed while someone pages.
      if (this.#walks.size > 500) this.#walks.delete(this.#walks.keys().next().value!)
    }
    if (stopped) this.#o.log?.warn(`${network} ${address.slice(0, 8)}…: ${stopped}`)
    return stopped
  }

  async #freshBalances(key: string, network: string, address: string): Promise<BalancesSnapshot | null> {
    const now = this.#clock.now()
    const hit = this.#balances.get(key)
    if (hit)
      return now - this.#validFrom(key, hit.fetchedAt) < this.#fresh.balancesMs
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

  /** A fresh fetch: the block it is current at (unknown: it is never revalidated, only refetched). */
  #stamp(key: string, since: number | undefined): void {
    // Deleted first, so a refetched key moves to the end: the map stays in fetch order.
    this.#stamps.delete(key)
    if (since !== undefined) this.#stamps.set(key, { since, checkedAt: null })
    // Bounded like the caches: oldest first out.
    if (this.#stamps.size > 3000) this.#stamps.delete(this.#stamps.keys().next().value!)
  }

  /** When cached data was last known current: its fetch, or a later revalidation. */
  #validFrom(key: string, fetchedAt: number): number {
    return Math.max(fetchedAt, this.#stamps.get(key)?.checkedAt ?? 0)
  }

  #checkedAt(key: string): number | null {
    return this.#stamps.get(key)?.checkedAt ?? null
  }

  /**
   * Stale balances or first page: asks the service whether the address changed since the
   * block the data was current at (one batch for both, data/revalidate.ts). True keeps the
   * cache, now confirmed (`checkedAt`); anything else (changed, unknown, no batches, no known
   * block, older than `revalidatedMaxMs`) refetches. A confirmation covers both of the
   * address's entries whose block is no older than the one asked about.
   */
  async #revalidated(
    key: string,
    fetchedAt: number,
    network: string,
    address: string,
    priority: Priority,
  ): Promise<boolean> {
    const now = this.#clock.now()
    if (!this.#stamps.has(key) || now - fetchedAt >= this.#fresh.revalidatedMaxMs || !this.#revalidator.usable(network))
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
    const at = this.#clock.now()
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
      const fetched = [this.#balances.get(keys[0])?.fetchedAt ?? 0, this.#pages.get(keys[1])?.fetchedAt ?? 0]
      if (Math.max(...fetched) === 0 || now - Math.max(...fetched) >= this.#fresh.revalidatedMaxMs) return null
      const fresh = Math.min(...keys.map((k, i) => this.#validFrom(k, fetched[i]!)))
      if (now - fresh < Math.min(this.#fresh.balancesMs, this.#fresh.firstPageMs) / 2) return null
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
    const cached = this.#balances.get(balancesKey)
    return cached
      ? !cached.value.items.some((item) => NATIVE_PSEUDO_TOKENS.has(item.token.address.toLowerCase()))
      : false
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

/** Token addresses some services give the chain's coin when they list it among token balances. */
const NATIVE_PSEUDO_TOKENS = new Set([ZERO_ADDRESS, '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'])

/**
 * A refetched first page that ends inside the previous first page (fewer than a page of new
 * transactions came): it is followed by the rest of the previous page and handed out with the
 * previous page's cursor. Cursors name a position in the list (Blockscout's are keyset cursors:
 * block, index, hash), not an offset, so the pages behind that cursor, already fetched, still
 * follow on exactly and need no request. Were a service's cursor an offset, its later pages
 * would only repeat a few rows (shown once, by hash), never skip any: new transactions come in
 * at the top. Not stitched when either page has unreadable items (their place is unknown) or the
 * new page's last row is not in the previous page (a page or more of new transactions), nor when
 * the result would pass twice the new page's length: the previous page may itself be stitched,
 * and a busy address refetched all session would otherwise grow its first page (and its snapshot)
 * without bound. The next page is then asked for with the new page's own cursor.
 */
export function stitchFirstPage(fresh: PageValue, previous: PageValue | undefined): PageValue {
  if (!previous || fresh.nextCursor === null || previous.nextCursor === null) return fresh
  if ((fresh.unreadable?.length ?? 0) > 0 || (previous.unreadable?.length ?? 0) > 0) return fresh
  const last = fresh.items.at(-1)
  if (!last || last.block === null) return fresh
  const at = previous.items.findIndex((tx) => tx.hash === last.hash)
  if (at < 0) return fresh
  const shown = new Set(fresh.items.map((tx) => tx.hash))
  const rest = previous.items.slice(at + 1).filter((tx) => !shown.has(tx.hash))
  if (rest.length > fresh.items.length) return fresh
  return { items: [...fresh.items, ...rest], unreadable: fresh.unreadable ?? [], nextCursor: previous.nextCursor }
}

export type PageValue = {
  items: Transaction[]
  unreadable?: ParsedItems<Transaction>['unreadable']
  nextCursor: string | null
}

/** (block, index) of a cursor, when the service put them in (Blockscout: `block_number`, `index`). */
function cursorPosition(params: CursorParams): [number, number] | null {
  const num = (v: unknown): number | null =>
    typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : null
  const block = num(params.block_number)
  const index = num(params.index)
  return block === null || index === null ? null : [block, index]
}

function provenance(
  source: DataSource,
  fetchedAt: number,
  staleReason: Stale,
  checkedAt: number | null = null,
): Provenance {
  return {
    source,
    fetchedAt: new Date(fetchedAt).toISOString(),
    staleReason,
    ...(checkedAt !== null ? { checkedAt: new Date(checkedAt).toISOString() } : {}),
  }
}

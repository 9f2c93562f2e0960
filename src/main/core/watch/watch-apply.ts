import type { BalancesView, Priority, TransactionsPage } from '@shared/bridge/contract'
import { addTokenDelta, stateKey, type AddressState, type ProfileWatchState } from './watch-state'
import { snapshotOf, tokenTotals } from './watch-tokens'
import { errorMessage } from '@shared/guards'
import type { CheckRuntime, Spend } from './watch-spend'

/**
 * What a check writes into the watch state per address: the baseline, a coin balance
 * compared with the last one, token amounts moved, and what the refetched balances and first
 * page say (new transactions, token symbols).
 */

/** The first look at an address: what later checks compare with. */
function baseline(balanceWei: bigint, head: number, at: string): AddressState {
  return {
    // No longer read (coin balance and logs tell the changes); kept for older versions of the file.
    nonce: '0',
    balanceWei: balanceWei.toString(),
    checkedAt: at,
    lookBlock: head,
    lookBalanceWei: balanceWei.toString(),
    newTxs: 0,
    newTxsMore: false,
    tokenDeltas: {},
    unseen: false,
  }
}

/** An address on a network, as the watch state keys it. */
export interface WatchedAddress {
  network: string
  address: string
}

/** What a check read of one address: its coin balance and the token amounts moved, at `head`, checked `at`. */
export interface WatchReading {
  balance: bigint | null
  moved?: Map<string, bigint>
  head: number
  at: string
}

/**
 * Records a coin balance and token amounts moved; returns whether the address changed. A
 * baseline is set for an address seen for the first time (it has not changed).
 */
export function record(state: ProfileWatchState, { network, address }: WatchedAddress, reading: WatchReading): boolean {
  const { balance, moved, head, at } = reading
  const key = stateKey(network, address)
  const prev = state.addresses[key]
  if (!prev) {
    if (balance !== null) state.addresses[key] = baseline(balance, head, at)
    return false
  }
  const tokenDeltas = { ...prev.tokenDeltas }
  for (const [k, v] of moved ?? []) tokenDeltas[k] = addTokenDelta(tokenDeltas[k], v)
  const coinMoved = balance !== null && balance.toString() !== prev.balanceWei
  // Tokens that went and came back still moved: the address changed.
  const changed = coinMoved || (moved?.size ?? 0) > 0
  state.addresses[key] = {
    ...prev,
    balanceWei: balance === null ? prev.balanceWei : balance.toString(),
    checkedAt: at,
    tokenDeltas,
    unseen: prev.unseen || changed,
  }
  return changed
}

/** Transactions of the first page after the address's last look (a pending one is new by definition). */
function newTransactions(page: TransactionsPage, after: number): { fresh: number; more: boolean } {
  const fresh = page.items.filter((tx) => (tx.block ?? Infinity) > after).length
  return { fresh, more: fresh === page.items.length && page.nextCursor !== null }
}

/** Writes the first page's news and the balances' token names into a changed address's state. */
function applyRefetch(
  state: ProfileWatchState,
  { network, address }: WatchedAddress,
  read: { page: TransactionsPage | null; balances: BalancesView | null },
): void {
  const { page, balances } = read
  const key = stateKey(network, address)
  const s = state.addresses[key]
  if (!s) return
  const next: AddressState = { ...s }
  if (page) {
    const { fresh, more } = newTransactions(page, s.lookBlock)
    next.newTxs = fresh
    next.newTxsMore = more
  }
  if (balances) {
    const tokenMeta = { ...s.tokenMeta }
    for (const item of balances.items) {
      const decimals = item.token.decimals === null ? null : Number(item.token.decimals)
      tokenMeta[item.token.address.toLowerCase()] = {
        symbol: item.token.symbol?.slice(0, 40) ?? null,
        decimals: decimals !== null && decimals <= 255 ? decimals : null,
      }
    }
    next.tokenMeta = tokenMeta
  }
  state.addresses[key] = next
}

/** One network's check, as the refetches need it. */
export interface RefetchContext {
  runtime: CheckRuntime
  state: ProfileWatchState
  network: string
  priority: Priority
  spend: Spend
}

/** A balances answer's totals, when it can be trusted as a snapshot (answered now, every item read). */
function snapshotFrom(view: BalancesView | null): Record<string, string> | undefined {
  if (!view || view.source !== 'network' || view.unreadable.length > 0) return undefined
  return snapshotOf(tokenTotals(view.items))
}

/**
 * Refetches balances (unless given) and the first page of changed addresses; each is one data
 * request. An address without a token snapshot takes the balances answer as its snapshot. The
 * changes are already recorded: a refetch that fails (the quota ran out) only leaves the news
 * unread, told in the answer (null: all read).
 */
export async function refetchChanged(
  ctx: RefetchContext,
  changed: readonly string[],
  known?: ReadonlyMap<string, BalancesView>,
): Promise<string | null> {
  const { runtime, state, network, priority, spend } = ctx
  const failures: string[] = []
  await Promise.all(
    changed.map(async (address) => {
      const req = { network, address, priority, scope: 'watch-check', refresh: true }
      const given = known?.get(address)
      const [balances, page] = await Promise.allSettled([
        given ?? runtime.data.balances(req),
        runtime.data.transactions({ ...req, cursor: null }),
      ])
      spend.units += (balances.status === 'fulfilled' && !given ? 1 : 0) + (page.status === 'fulfilled' ? 1 : 0)
      for (const r of [balances, page]) if (r.status === 'rejected') failures.push(errorMessage(r.reason))
      const view = balances.status === 'fulfilled' ? balances.value : null
      applyRefetch(
        state,
        { network, address },
        { page: page.status === 'fulfilled' ? page.value : null, balances: view },
      )
      const s = state.addresses[stateKey(network, address)]
      if (s && !s.tokens) state.addresses[stateKey(network, address)] = { ...s, tokens: snapshotFrom(view) }
    }),
  )
  return failures.length === 0
    ? null
    : `the balances and transactions of changed addresses could not all be read again (${failures[0]})`
}

/**
 * Reads the token balances of addresses the check has none of yet (first seen, or kept by an
 * older Chainscope): what the `balances` way of a later long gap compares with. One data
 * request each; one that fails is asked again at the next check.
 */
export async function readTokenSnapshots(ctx: RefetchContext, addresses: readonly string[]): Promise<void> {
  const { runtime, state, network, priority, spend } = ctx
  const missing = addresses.filter((a) => {
    const s = state.addresses[stateKey(network, a)]
    return s !== undefined && s.tokens === undefined
  })
  await Promise.all(
    missing.map(async (address) => {
      let view: BalancesView | null = null
      try {
        view = await runtime.data.balances({ network, address, priority, scope: 'watch-check', refresh: true })
        spend.units += 1
      } catch {
        return
      }
      const key = stateKey(network, address)
      const tokens = snapshotFrom(view)
      if (tokens && state.addresses[key]) state.addresses[key] = { ...state.addresses[key]!, tokens }
    }),
  )
}

import type { BalancesView, Priority, TransactionsPage } from '@shared/bridge/contract'
import { addTokenDelta, stateKey, type AddressState, type ProfileWatchState } from './watch-state'
import type { CheckRuntime, Spend } from './watch-spend'

/**
 * What a check writes into the watch state per address: the baseline, a coin balance
 * compared with the last one, token amounts moved, and what the refetched balances and first
 * page say (new transactions, token symbols).
 */

/** The first look at an address: what later checks compare with. */
export function baseline(balanceWei: bigint, head: number, at: string): AddressState {
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

/**
 * Records a coin balance and token amounts moved; returns whether the address changed. A
 * baseline is set for an address seen for the first time (it has not changed).
 */
export function record(
  state: ProfileWatchState,
  network: string,
  address: string,
  balance: bigint | null,
  moved: Map<string, bigint> | undefined,
  head: number,
  at: string,
): boolean {
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
export function newTransactions(page: TransactionsPage, after: number): { fresh: number; more: boolean } {
  const fresh = page.items.filter((tx) => (tx.block ?? Infinity) > after).length
  return { fresh, more: fresh === page.items.length && page.nextCursor !== null }
}

/** Writes the first page's news and the balances' token names into a changed address's state. */
export function applyRefetch(
  state: ProfileWatchState,
  network: string,
  address: string,
  page: TransactionsPage | null,
  balances: BalancesView | null,
): void {
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

/**
 * Token amounts the first page's transfers moved for `address` in blocks (after, upTo]:
 * what the re-read way of a long gap knows of token movements (only what that page holds).
 */
export function pageDeltas(page: TransactionsPage, address: string, after: number, upTo: number): Map<string, bigint> {
  const out = new Map<string, bigint>()
  const me = address.toLowerCase()
  for (const tx of page.items) {
    if (tx.block === null || tx.block <= after || tx.block > upTo) continue
    for (const t of tx.token_transfers ?? []) {
      const standard = t.token.type === 'ERC-721' ? 'erc721' : t.token.type === 'ERC-1155' ? 'erc1155' : 'erc20'
      const amount = standard === 'erc721' ? 1n : BigInt(t.total.value ?? '0')
      const key = `${standard}|${t.token.address.toLowerCase()}`
      if (t.from.hash.toLowerCase() === me) out.set(key, (out.get(key) ?? 0n) - amount)
      if (t.to.hash.toLowerCase() === me) out.set(key, (out.get(key) ?? 0n) + amount)
    }
  }
  return out
}

/** Refetches balances and (unless given) the first page of changed addresses; each is one data request. */
export async function refetchChanged(
  runtime: CheckRuntime,
  state: ProfileWatchState,
  network: string,
  changed: readonly string[],
  priority: Priority,
  spend: Spend,
  pages?: ReadonlyMap<string, TransactionsPage>,
): Promise<void> {
  await Promise.all(
    changed.map(async (address) => {
      const req = { network, address, priority, scope: 'watch-check', refresh: true }
      const known = pages?.get(address)
      const [balances, page] = await Promise.all([
        runtime.data.balances(req),
        known ?? runtime.data.transactions({ ...req, cursor: null }),
      ])
      spend.units += known ? 1 : 2
      applyRefetch(state, network, address, page, balances)
    }),
  )
}

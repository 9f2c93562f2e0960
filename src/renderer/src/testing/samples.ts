import type {
  BalancesView,
  HeightView,
  LimiterState,
  ProfileView,
  TransactionsPage,
  Watchlist,
} from '@shared/bridge/contract'
import type { BalanceItem } from '@shared/domain/service-schemas'
import { makeTx, ME } from '@shared/testing/service-samples'

/** Sample data for component tests: bridge views around the service's spec-shaped answers. */

export { makeBalance, makeTx, ME, OTHER, party } from '@shared/testing/service-samples'

export function makePage(
  from: number,
  count: number,
  nextCursor: string | null,
  extra: Partial<TransactionsPage> = {},
): TransactionsPage {
  return {
    network: 'alpha',
    address: ME,
    cursor: null,
    items: Array.from({ length: count }, (_, k) => makeTx(from + k)),
    unreadable: [],
    nextCursor,
    source: 'network',
    fetchedAt: '2026-01-01T00:00:00.000Z',
    staleReason: null,
    ...extra,
  }
}

export function makeBalances(items: BalanceItem[], extra: Partial<BalancesView> = {}): BalancesView {
  return {
    network: 'alpha',
    address: ME,
    items,
    unreadable: [],
    source: 'network',
    fetchedAt: '2026-01-01T00:00:00.000Z',
    staleReason: null,
    ...extra,
  }
}

export function sandboxProfile(active = true, ready = true): ProfileView {
  return {
    id: 'sandbox',
    name: 'Sandbox',
    kind: 'sandbox',
    baseUrl: ready ? 'http://127.0.0.1:1234' : '',
    rpcUrl: ready ? 'http://127.0.0.1:1234/rpc' : '',
    networks: ready
      ? [
          { name: 'alpha', label: 'Alpha' },
          { name: 'beta', label: 'Beta' },
        ]
      : [],
    limits: { ratePerSecond: 50, burst: 5, quotaPerDay: 1000, scope: 'key' },
    billing: 'request',
    active,
  }
}

export function makeLimiter(extra: Partial<LimiterState> = {}): LimiterState {
  return {
    profileId: 'sandbox',
    tokens: 5,
    burst: 5,
    ratePerSecond: 50,
    queued: { user: 0, prefetch: 0, background: 0 },
    inFlight: 0,
    usedToday: 12,
    quotaPerDay: 1000,
    leftToday: 988,
    resetsAt: '2026-01-02T00:00:00.000Z',
    reserve: 200,
    throttled: false,
    ...extra,
  }
}

export function makeHeight(network: string, height: string | null, extra: Partial<HeightView> = {}): HeightView {
  return {
    network,
    height,
    estimated: false,
    stale: false,
    gasPriceWei: '1500000000',
    observedHeight: height,
    liveUntil: '2999-01-01T00:00:00.000Z',
    gasObservedAt: '2026-01-01T00:00:00.000Z',
    observedAt: '2026-01-01T00:00:00.000Z',
    blockTimeMs: 2000,
    chainId: null,
    ...extra,
  }
}

export function makeWatchlist(id: string, name: string, addresses: string[] = []): Watchlist {
  return {
    id,
    name,
    entries: addresses.map((a, i) => ({
      id: `${id}-e${i}`,
      address: a.toLowerCase(),
      network: 'alpha',
      label: `Entry ${i}`,
      note: '',
      tags: [],
      addedAt: '2026-01-01T00:00:00.000Z',
    })),
  }
}

import { sameAddress } from '@shared/domain/address'
import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import type { NetworkPresence, Provenance } from '@shared/bridge/contract'
import { bridge } from '../../platform/bridge'
import { fetched } from '../../platform/fetched'
import { internalByHash, tracedInternal, tracedNote } from '../../platform/traced-internal'
import { useChainStore } from '../../platform/chain-store'
import { useBalancesStore } from '../balances'
import { useTransactionsStore } from '../transactions'
import { useWatchlistsStore, watchLabelsOn } from '../watchlists'
import { useLabelsStore } from '../labels'
import { NATIVE } from '@shared/domain/movements'
import { newestCoinRate, tokenRates, type Rates } from '@shared/domain/money'
import { assetsFromBalances, balanceHistory, type AssetNow } from './balance-history'
import {
  counterparties,
  filterCounterparties,
  sortCounterparties,
  type Counterparty,
  type CounterpartySort,
} from './counterparties'

/** A network's answer that says anything: a checked balance or nonce, or what the snapshots hold. */
const knowsSomething = (p: NetworkPresence): boolean =>
  p.source !== 'none' || p.tokens !== null || p.cachedTransactions > 0

/**
 * The check is as fresh as its oldest network answer; from the cache unless every one was asked
 * now. A card main kept from its cache because its network's check failed carries why (main's
 * `staleReasonFor`): the failure beside the data.
 */
function presenceProvenance(answers: NetworkPresence[]): Provenance | null {
  const times = answers.flatMap((p) => (p.fetchedAt ? [p.fetchedAt] : []))
  if (times.length === 0) return null
  const oldest = times.reduce((a, b) => (Date.parse(a) <= Date.parse(b) ? a : b))
  const live = answers.every((p) => p.source === 'network')
  const staleReason = live ? null : (answers.find((p) => p.source === 'cache' && p.staleReason)?.staleReason ?? null)
  return { source: live ? 'network' : 'cache', fetchedAt: oldest, staleReason }
}

/**
 * The analyst views of the open address. Counterparties and balance history are
 * worked out from what the transactions and balances stores already hold: no requests of
 * their own. The both-networks summary is the one part that may ask (one RPC batch per
 * network, unless a fresh answer is cached), and it reports its cost.
 */
export const useAnalysisStore = defineStore('analysis', () => {
  const txs = useTransactionsStore()
  const balances = useBalancesStore()
  const watchlists = useWatchlistsStore()
  const labels = useLabelsStore()
  const chain = useChainStore()
  void labels.load()

  // The both-networks check, keyed by the lowercase address, through the fetched-data layer.
  const check = fetched<string, NetworkPresence[]>({
    same: (a, b) => a === b,
    cached: async (address) => {
      const r = await bridge.invoke('analysis.networks', { address, cacheOnly: true })
      return r.ok && r.value.some(knowsSomething) ? r.value : null
    },
    live: (address, { refresh }) => bridge.invoke('analysis.networks', { address, refresh }),
    provenance: presenceProvenance,
  })
  const presence = check.data
  const presenceFor = check.key
  const presenceLoading = computed(() => check.status.value === 'loading')

  const sortKey = ref<CounterpartySort>('txs')
  const sortDir = ref<'asc' | 'desc'>('desc')
  const query = ref('')
  /** The page's token filter as a movement's asset key (`NATIVE` or a token contract): the table sums only it. */
  const onlyAsset = ref<string | null>(null)
  const chartMetric = ref<'count' | 'native'>('count')

  /** The user's names on the open network (watchlist label, then address label), by lowercase address. */
  const watchLabels = computed(() => watchLabelsOn(watchlists.lists, txs.target?.network, labels.byId.values()))
  /** The user's name first (watch-labels.ts), then what the service names it. */
  const labelOf = (c: Counterparty): string | null => watchLabels.value.get(c.address) ?? c.label

  /**
   * The loaded transactions the user traced: their internal coin transfers count, marked
   * (docs/decisions/internal-transfers-in-flows.md). Kept traces only: sends nothing, costs nothing.
   */
  const traced = tracedInternal()
  const loadedHashes = computed(() => txs.items.flatMap((t) => (typeof t.hash === 'string' ? [t.hash] : [])))
  function readInternal(): void {
    const t = txs.target
    if (!t || loadedHashes.value.length === 0) return traced.reset()
    void traced.load({ network: t.network, address: t.address.toLowerCase(), hashes: loadedHashes.value })
  }
  watch(() => [txs.target?.network, txs.target?.address, loadedHashes.value.join()], readInternal)
  const internalNote = computed(() => (loadedHashes.value.length > 0 ? tracedNote(traced.data.value) : null))

  // The page's token, counterparty and date filters narrow the table; the history walks all.
  const summary = computed(() =>
    txs.target
      ? counterparties(txs.narrowed, txs.target.address, onlyAsset.value, internalByHash(traced.data.value))
      : null,
  )
  const rows = computed(() => {
    const s = summary.value
    return s ? sortCounterparties(filterCounterparties(s.rows, query.value, labelOf), sortKey.value, sortDir.value) : []
  })

  function sortBy(key: CounterpartySort): void {
    if (sortKey.value === key) sortDir.value = sortDir.value === 'asc' ? 'desc' : 'asc'
    else {
      sortKey.value = key
      sortDir.value = key === 'address' ? 'asc' : 'desc'
    }
  }

  /** Today's balances: tokens from the balances answer, the native coin from the presence check. */
  const assetsNow = computed((): AssetNow[] => {
    const t = txs.target
    const view = balances.view
    const out: AssetNow[] =
      view && t && view.network === t.network && sameAddress(view.address, t.address)
        ? assetsFromBalances(view.items)
        : []
    const native =
      t && presenceFor.value !== null && sameAddress(presenceFor.value, t.address)
        ? presence.value?.find((p) => p.network === t.network)?.nativeWei
        : null
    if (typeof native === 'string' && /^\d+$/.test(native) && t)
      out.unshift({ key: NATIVE, symbol: chain.coinOf(t.network).symbol, decimals: 18, value: BigInt(native) })
    return out
  })
  const nativeKnown = computed(() => assetsNow.value.some((a) => a.key === NATIVE))
  /** The rates USD beside amounts uses: the newest transaction's coin rate, the tokens' (money.ts). */
  const rates = computed((): Rates => {
    const t = txs.target
    const view = balances.view
    const items = view && t && view.network === t.network ? view.items : []
    return { coin: newestCoinRate(txs.items), tokens: tokenRates(items, txs.items) }
  })
  const history = computed(() =>
    txs.target ? balanceHistory(txs.items, txs.target.address, assetsNow.value, Date.now()) : null,
  )

  /** True when the loaded transactions are the given address's (the views show nothing else). */
  function isFor(network: string, address: string): boolean {
    const t = txs.target
    return t !== null && t.network === network && sameAddress(t.address, address)
  }

  /** Checks both networks again (fresh answers are reused for free unless `refresh`). */
  function loadPresence(address: string, refresh = false): Promise<void> {
    return check.load(address.toLowerCase(), { refresh })
  }

  return {
    presence,
    presenceFor,
    rates,
    presenceLoading,
    presenceError: check.error,
    presenceState: check.summary,
    loadPresence,
    isFor,
    sortKey,
    sortDir,
    query,
    onlyAsset,
    chartMetric,
    summary,
    internalNote,
    internalState: traced.summary,
    readInternal,
    rows,
    labelOf,
    sortBy,
    assetsNow,
    nativeKnown,
    history,
  }
})

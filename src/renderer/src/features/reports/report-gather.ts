import { normaliseAddress } from '@shared/domain/address'
import { displayName } from '@shared/domain/display-name'
import type { Transaction } from '@shared/domain/service-schemas'
import { bridge } from '../../platform/bridge'
import { useBalancesStore } from '../balances'
import { useTransactionsStore } from '../transactions'
import { useWatchlistsStore, watchLabelsOn } from '../watchlists'
import type { ReportSubject } from './report-model'

export interface SubjectRef {
  network: string
  networkLabel: string
  address: string
  label: string | null
  note: string | null
}

/**
 * The data a report is made of, for one address, and never a request: the open address's
 * pages and balances as the page holds them, else what main has cached (`cacheOnly`: free, of
 * any age). Everything comes through the bridge, so main has already removed the API key.
 */
export async function gatherSubject(ref: SubjectRef): Promise<ReportSubject> {
  const address = normaliseAddress(ref.address)
  const txs = useTransactionsStore()
  const balances = useBalancesStore()
  const watchlists = useWatchlistsStore()
  let transactions: readonly Transaction[] = []
  let fetchedAt: string | null = null
  const t = txs.target
  if (t && t.network === ref.network && normaliseAddress(t.address) === address && txs.items.length > 0) {
    transactions = txs.items
    fetchedAt = txs.provenance?.fetchedAt ?? null
  } else {
    const r = await bridge.invoke('data.transactions', {
      network: ref.network,
      address,
      cursor: null,
      priority: 'user',
      refresh: false,
      cacheOnly: true,
    })
    if (r.ok) {
      transactions = r.value.items
      fetchedAt = r.value.fetchedAt
    }
  }
  const b = balances.view
  const ownBalances =
    b && b.network === ref.network && normaliseAddress(b.address) === address
      ? { items: b.items, fetchedAt: b.fetchedAt }
      : null
  const watchLabels = watchLabelsOn(watchlists.lists, ref.network)
  return {
    ...ref,
    // Opened from its page, an address has no case label: the user's watchlist label names it.
    label: ref.label ?? displayName(watchLabels.get(address)) ?? null,
    address,
    transactions,
    transactionsFetchedAt: fetchedAt,
    balances: ownBalances,
    watchLabels,
  }
}

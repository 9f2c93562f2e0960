import { normaliseAddress } from '@shared/domain/address'
import { displayName } from '@shared/domain/display-name'
import type { Transaction } from '@shared/domain/service-schemas'
import { readCachedPages } from '../../platform/cached-page'
import { useBalancesStore } from '../balances'
import { useFlowsStore } from '../flows'
import { useTransactionsStore } from '../transactions'
import { useWatchlistsStore, watchLabelsOn } from '../watchlists'
import { useLabelsStore } from '../labels'
import type { ExpandedPage, ReportSubject } from './report-model'

export interface SubjectRef {
  network: string
  networkLabel: string
  address: string
  label: string | null
  note: string | null
}

/** A flow graph's state as a report needs it: the addresses it expanded and its hop limit. */
export interface GraphRef {
  expanded: readonly { network: string; address: string }[]
  hopLimit: number
}

/** Every page main holds for an address, of any age, without a request (none: empty). */
async function readCached(
  network: string,
  address: string,
): Promise<{ transactions: readonly Transaction[]; fetchedAt: string | null }> {
  const pages = await readCachedPages(network, address)
  // As fresh as its stalest page.
  const times = pages.map((p) => p.fetchedAt).sort((x, y) => Date.parse(x) - Date.parse(y))
  return { transactions: pages.flatMap((p) => p.items), fetchedAt: times[0] ?? null }
}

/**
 * The graph a report of these addresses draws: the one given (a case's saved graph), else the
 * flow graph open in the app when it is rooted on the one address reported.
 */
function graphOf(refs: readonly SubjectRef[], given: GraphRef | null): GraphRef | null {
  if (given) return given
  const flows = useFlowsStore()
  const r = flows.root
  const only = refs.length === 1 ? refs[0]! : null
  if (!r || !only || r.network !== only.network || r.address !== normaliseAddress(only.address)) return null
  return {
    expanded: [...flows.expanded.keys()].map((address) => ({ network: r.network, address })),
    hopLimit: flows.hops,
  }
}

/**
 * Every address of a report with what its graph holds: its own data (`gatherSubject`) and the
 * cached pages of the addresses the graph expanded on its network, each read once and only
 * from the cache. A page not cached stays in the report as "not kept", never fetched.
 */
export async function gatherReport(
  refs: readonly SubjectRef[],
  given: GraphRef | null = null,
): Promise<ReportSubject[]> {
  const graph = graphOf(refs, given)
  const labels = new Map(refs.map((r) => [r.network, r.networkLabel]))
  const wanted = new Map<string, { network: string; networkLabel: string; address: string }>()
  for (const n of graph?.expanded ?? []) {
    const networkLabel = labels.get(n.network)
    // An expanded address on a network no reported address is on is in none of their graphs.
    if (networkLabel === undefined) continue
    const address = normaliseAddress(n.address)
    wanted.set(`${n.network}/${address}`, { network: n.network, networkLabel, address })
  }
  // Cache reads cost no request: all of them at once.
  const read = await Promise.all(
    [...wanted.values()].map(async (w): Promise<ExpandedPage> => ({
      ...w,
      ...(await readCached(w.network, w.address)),
    })),
  )
  const pages = new Map<string, ExpandedPage[]>()
  for (const p of read) {
    const list = pages.get(p.network)
    if (list) list.push(p)
    else pages.set(p.network, [p])
  }
  const out: ReportSubject[] = []
  for (const ref of refs) {
    const s = await gatherSubject(ref)
    const expanded = (pages.get(s.network) ?? []).filter((p) => p.address !== s.address)
    out.push(graph ? { ...s, expanded, hops: graph.hopLimit } : s)
  }
  return out
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
    const page = await readCached(ref.network, address)
    transactions = page.transactions
    fetchedAt = page.fetchedAt
  }
  const b = balances.view
  const ownBalances =
    b && b.network === ref.network && normaliseAddress(b.address) === address
      ? { items: b.items, fetchedAt: b.fetchedAt }
      : null
  const watchLabels = watchLabelsOn(watchlists.lists, ref.network, useLabelsStore().byId.values())
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

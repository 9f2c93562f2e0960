import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { Provenance } from '@shared/bridge/contract'
import { ok, type BridgeError, type BridgeResult } from '@shared/bridge/errors'
import type { Transaction } from '@shared/domain/service-schemas'
import { normaliseAddress, sameAddress } from '@shared/domain/address'
import { bridge } from '../../platform/bridge'
import { readCachedPage } from '../../platform/cached-page'
import { fetched as fetchedLayer } from '../../platform/fetched'
import { internalByHash, tracedInternal, tracedNote } from '../../platform/traced-internal'
import { useTransactionsStore } from '../transactions'
import { useWatchlistsStore, watchLabelsOn } from '../watchlists'
import { useLabelsStore } from '../labels'
import { buildFlowGraph } from './flow-graph'
import { collapseHubs, HUB_THRESHOLD } from './flow-hubs'
import { FlowFilterError, limitFlows, type FlowDirection } from './flow-limit'
import { answerPath, isStale, type PathAnswer, type PathQuery } from './flow-path'
import { DAY_MS, utcDayStartMs } from '@shared/domain/utc-day'

export interface ExpandProgress {
  running: boolean
  done: number
  total: number
  /** Addresses whose page could not be loaded, with why. */
  failed: { address: string; error: BridgeError }[]
}

/** The graph's queued work: leaving the address cancels it. 'f:' + network + ':' + address fits 80. */
function flowScope(network: string, root: string): string {
  return `f:${network}:${normaliseAddress(root)}`
}

type Root = { network: string; address: string }
/** An expanded address's first page, with its "as of". */
type Page = { items: Transaction[] } & Provenance
/** The expansions shown, by lowercase address. */
type Expansions = Map<string, Page>

/** The expansions are as fresh as their oldest page; from the cache unless every one was asked now. */
function expansionsProvenance(pages: Expansions): Provenance | null {
  const all = [...pages.values()]
  if (all.length === 0) return null
  const oldest = all.reduce((a, b) => (Date.parse(a.fetchedAt) <= Date.parse(b.fetchedAt) ? a : b))
  const live = all.every((p) => p.source === 'network')
  const staleReason = all.find((p) => p.staleReason)?.staleReason ?? null
  return { source: live ? 'network' : 'cache', fetchedAt: oldest.fetchedAt, staleReason }
}

/**
 * The flow graph of the open address: the address page's own loaded transactions, plus the
 * first page of every address the user expands: from main's cache when it has one (free, of
 * any age, as the analysis views widen), else one request. Those requests run at prefetch
 * priority through main's limiter, so the user's own clicks go first and the daily reserve
 * applies as to any other prefetch; their number is known before (`probe`, `costOf`).
 */
export const useFlowsStore = defineStore('flows', () => {
  const txs = useTransactionsStore()
  const watchlists = useWatchlistsStore()

  /**
   * The expansions through the fetched-data layer: a failure keeps the graph shown with the
   * failure beside it, and an answer for a root left (or a stopped expansion) is dropped.
   * The root's own transactions are the transactions store's: nothing to read for it here.
   */
  const q = fetchedLayer<Root, Expansions>({
    same: (a, b) => a.network === b.network && a.address === b.address,
    live: async () => ok(new Map()),
    provenance: expansionsProvenance,
    scope: (r) => flowScope(r.network, r.address),
  })
  const root = q.key
  /** First pages of expanded addresses, by lowercase address. */
  const expanded = computed(() => new Map([...(q.data.value ?? new Map<string, Page>())].map(([a, p]) => [a, p.items])))
  const progress = ref<ExpandProgress>({ running: false, done: 0, total: 0, failed: [] })

  const asset = ref<string | null>(null)
  const minAmount = ref('')
  const fromDate = ref('')
  const toDate = ref('')
  const direction = ref<FlowDirection>('both')
  const hops = ref(2)
  const hubThreshold = ref(HUB_THRESHOLD)
  const selected = ref<string | null>(null)
  /** Where the analyst dragged nodes (graph units), by lowercase address; a case keeps them. */
  const positions = shallowRef<ReadonlyMap<string, { x: number; y: number }>>(new Map())
  /** A node dragged to `at` (the canvas's `moved`), by its id (its address): a new map each time. */
  function moveNode(id: string, at: { x: number; y: number }): void {
    positions.value = new Map(positions.value).set(id, { x: at.x, y: at.y })
  }
  /** Addresses whose page was fetched from the service (not the cache) since the graph opened. */
  const fetched = shallowRef<readonly string[]>([])

  const rootTxs = computed(() => {
    const r = root.value
    const t = txs.target
    return r && t && t.network === r.network && sameAddress(t.address, r.address) ? txs.items : []
  })

  const labels = useLabelsStore()
  void labels.load()
  const watchLabels = computed(() => watchLabelsOn(watchlists.lists, root.value?.network, labels.byId.values()))

  const dayMs = (text: string, end: boolean): number | null => {
    const ms = utcDayStartMs(text)
    return ms === null ? null : end ? ms + DAY_MS - 1 : ms
  }

  /**
   * The root's loaded transactions that the user traced: their internal coin transfers join the
   * graph, marked internal. Read from main's kept traces (sends nothing, costs nothing) when the
   * root or its loaded set changes, and again when the graph opens (`readInternal`).
   */
  const traced = tracedInternal()
  const rootHashes = computed(() => rootTxs.value.flatMap((t) => (typeof t.hash === 'string' ? [t.hash] : [])))
  function readInternal(): void {
    const r = root.value
    if (!r || rootHashes.value.length === 0) return traced.reset()
    void traced.load({ network: r.network, address: r.address, hashes: rootHashes.value })
  }
  watch(() => [root.value, rootHashes.value.join()], readInternal)
  const internalNote = computed(() => (rootHashes.value.length > 0 ? tracedNote(traced.data.value) : null))

  /** Everything loaded, by asset and date window: what path finding searches. */
  const graph = computed(() => {
    const all: Transaction[] = [...rootTxs.value]
    for (const list of expanded.value.values()) all.push(...list)
    return buildFlowGraph(all, {
      asset: asset.value,
      fromMs: dayMs(fromDate.value, false),
      toMs: dayMs(toDate.value, true),
      watchLabels: watchLabels.value,
      internal: internalByHash(traced.data.value),
    })
  })

  const keep = computed(() => {
    const out = new Set(expanded.value.keys())
    if (root.value) out.add(root.value.address)
    if (selected.value) out.add(selected.value)
    return out
  })

  /** What the graph shows: within the hop limit and minimum, busy hubs folded. */
  const view = computed(() => {
    const r = root.value
    if (!r) return { edges: [], distance: new Map<string, number>(), hubs: new Map<string, number>(), error: null }
    try {
      const limited = limitFlows(graph.value.edges, r.address, {
        hops: hops.value,
        direction: direction.value,
        minAmount: minAmount.value,
      })
      const c = collapseHubs(limited.edges, graph.value.nodes, keep.value, hubThreshold.value)
      for (const h of c.hidden) limited.distance.delete(h)
      return { edges: c.edges, distance: limited.distance, hubs: c.hubs, error: null }
    } catch (e) {
      if (e instanceof FlowFilterError)
        return { edges: [], distance: new Map<string, number>(), hubs: new Map<string, number>(), error: e.message }
      throw e
    }
  })

  /** Addresses shown, nearest first, then by address. */
  const shownNodes = computed(() =>
    [...view.value.distance.entries()]
      .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))
      .map(([address, hop]) => ({ address, hop, node: graph.value.nodes.get(address) ?? null })),
  )

  const isLoaded = (address: string): boolean => address === root.value?.address || expanded.value.has(address)

  /**
   * What main has cached, asked for free (`cacheOnly` never sends a request): the page of an
   * address when cached (of any age, as the analysis views widen), null when it is not.
   */
  const probed = shallowRef<Map<string, Page | null>>(new Map())
  let probing: Promise<void> = Promise.resolve()

  function readCached(network: string, address: string): Promise<Page | null> {
    return readCachedPage(network, address)
  }

  /** Finds out which of these addresses are cached, so their cost is known before they expand. */
  function probe(addresses: readonly string[]): Promise<void> {
    const r = root.value
    if (!r) return probing
    const todo = addresses.map((a) => a.toLowerCase()).filter((a) => !isLoaded(a) && !probed.value.has(a))
    if (todo.length === 0) return probing
    probing = probing.then(async () => {
      const found = new Map<string, Page | null>()
      for (const a of todo) {
        if (root.value !== r) return
        if (!probed.value.has(a) && !found.has(a)) found.set(a, await readCached(r.network, a))
      }
      if (root.value === r) probed.value = new Map([...probed.value, ...found])
    })
    return probing
  }

  /**
   * Requests expanding these addresses will cost: one per address neither loaded nor cached.
   * Null while any of them is still being looked up.
   */
  function costOf(addresses: readonly string[]): number | null {
    let n = 0
    for (const raw of addresses) {
      const a = raw.toLowerCase()
      if (isLoaded(a)) continue
      if (!probed.value.has(a)) return null
      if (probed.value.get(a) === null) n++
    }
    return n
  }

  /** The addresses at one hop that are not loaded yet: what "expand all at this hop" loads. */
  function unloadedAtHop(hop: number): string[] {
    return shownNodes.value.filter((n) => n.hop === hop && !isLoaded(n.address)).map((n) => n.address)
  }

  function open(network: string, address: string): void {
    const a = address.toLowerCase()
    if (root.value?.network === network && root.value.address === a) return
    // The old root's answers are dropped and its queued work in main cancelled.
    if (root.value) void q.leave()
    void q.load({ network, address: a }, { cacheOnly: true })
    q.replace(new Map())
    probed.value = new Map()
    selected.value = null
    positions.value = new Map()
    fetched.value = []
    progress.value = { running: false, done: 0, total: 0, failed: [] }
  }

  /** An address's first page: main's cached one (free, of any age), else one request at prefetch priority. */
  async function readFirstPage(r: Root, address: string): Promise<BridgeResult<Page>> {
    const cached = probed.value.get(address) ?? (await readCached(r.network, address))
    if (cached) return ok(cached)
    const result = await bridge.invoke('data.transactions', {
      network: r.network,
      address,
      cursor: null,
      priority: 'prefetch',
      scope: flowScope(r.network, r.address),
      refresh: false,
      cacheOnly: false,
    })
    if (!result.ok) return result
    fetched.value = [...fetched.value, address]
    return ok(result.value)
  }

  /**
   * Loads the first page of each address, one at a time (the limiter paces them anyway), with
   * progress. Addresses already loaded cost nothing and are skipped. Each goes through the
   * layer's `extend`: a failure is said beside the graph, which stays; an answer arriving after
   * the root changed or the expansion was stopped is dropped.
   */
  async function expand(addresses: readonly string[]): Promise<void> {
    const r = root.value
    if (!r || progress.value.running) return
    const todo = [...new Set(addresses.map((a) => a.toLowerCase()))].filter((a) => !isLoaded(a))
    if (todo.length === 0) return
    const mine = q.ticket()
    progress.value = { running: true, done: 0, total: todo.length, failed: [] }
    try {
      for (const address of todo) {
        const outcome: { error?: BridgeError } = {}
        await q.extend(
          async () => {
            const read = await readFirstPage(r, address)
            if (!read.ok) outcome.error = read.error
            return read
          },
          (shown, page) => new Map(shown ?? []).set(address, page),
        )
        if (!q.current(mine) || outcome.error?.kind === 'cancelled') return
        const { failed, done } = progress.value
        progress.value = {
          ...progress.value,
          done: done + 1,
          failed: outcome.error ? [...failed, { address, error: outcome.error }] : failed,
        }
      }
    } finally {
      if (q.current(mine)) progress.value = { ...progress.value, running: false }
    }
  }

  /** Stops the expansion: what it loaded stays; answers still on their way are dropped. */
  function cancel(): void {
    progress.value = { ...progress.value, running: false }
    void q.leave()
  }

  const pathFrom = ref('')
  const pathTo = ref('')
  const pathHops = ref(4)
  /** Off: only chains along which value moved from A towards B. */
  const pathUndirected = ref(false)
  const pathAnswer = shallowRef<PathAnswer | null>(null)
  const pathQuery = (): PathQuery => ({
    from: pathFrom.value.trim(),
    to: pathTo.value.trim(),
    maxHops: pathHops.value,
    undirected: pathUndirected.value,
  })
  /** undefined: not asked; null: no path; else the path (of the last answer, stale or not). */
  const path = computed(() => (pathAnswer.value ? pathAnswer.value.path : undefined))
  /** The inputs or the graph changed since the answer: it is marked, not shown as current. */
  const pathStale = computed(() => !!pathAnswer.value && isStale(pathAnswer.value, pathQuery(), graph.value.edges))
  /** Counts the questions asked: the same answer twice is still two questions (a case keeps each). */
  const pathAsked = ref(0)
  function searchPath(): void {
    pathAnswer.value = answerPath(graph.value.edges, pathQuery())
    pathAsked.value++
  }

  return {
    root,
    expanded,
    /** What the graph's expansions say of their data: "as of", the failure beside it (FetchedState.vue). */
    fetchState: q.summary,
    /** The traced-internal read, its note ("N of M loaded transactions traced; …"), and a re-read. */
    internalState: traced.summary,
    internalNote,
    readInternal,
    progress,
    asset,
    minAmount,
    fromDate,
    toDate,
    direction,
    hops,
    hubThreshold,
    selected,
    positions,
    moveNode,
    fetched,
    graph,
    view,
    shownNodes,
    isLoaded,
    unloadedAtHop,
    probe,
    costOf,
    open,
    expand,
    cancel,
    pathFrom,
    pathTo,
    pathHops,
    pathUndirected,
    path,
    pathAnswer,
    pathStale,
    pathAsked,
    searchPath,
  }
})

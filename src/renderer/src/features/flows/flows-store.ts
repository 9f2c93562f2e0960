import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { BridgeError } from '@shared/bridge/errors'
import type { Transaction } from '@shared/domain/service-schemas'
import { normaliseAddress } from '@shared/domain/address'
import { bridge } from '../../platform/bridge'
import { readCachedPage } from '../../platform/cached-page'
import { useTransactionsStore } from '../transactions'
import { useWatchlistsStore, watchLabelsOn } from '../watchlists'
import { buildFlowGraph } from './flow-graph'
import { collapseHubs, HUB_THRESHOLD } from './flow-hubs'
import { FlowFilterError, limitFlows, type FlowDirection } from './flow-limit'
import { findPath } from './flow-path'

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

  const root = ref<{ network: string; address: string } | null>(null)
  /** First pages of expanded addresses, by lowercase address. */
  const expanded = shallowRef<Map<string, Transaction[]>>(new Map())
  const progress = ref<ExpandProgress>({ running: false, done: 0, total: 0, failed: [] })

  const asset = ref<string | null>(null)
  const minAmount = ref('')
  const fromDate = ref('')
  const toDate = ref('')
  const direction = ref<FlowDirection>('both')
  const hops = ref(2)
  const hubThreshold = ref(HUB_THRESHOLD)
  const selected = ref<string | null>(null)

  const rootTxs = computed(() => {
    const r = root.value
    const t = txs.target
    return r && t && t.network === r.network && t.address.toLowerCase() === r.address ? txs.items : []
  })

  const watchLabels = computed(() => watchLabelsOn(watchlists.lists, root.value?.network))

  const dayMs = (text: string, end: boolean): number | null => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null
    const ms = Date.parse(`${text}T00:00:00Z`)
    return Number.isNaN(ms) ? null : end ? ms + 86_400_000 - 1 : ms
  }

  /** Everything loaded, by asset and date window: what path finding searches. */
  const graph = computed(() => {
    const all: Transaction[] = [...rootTxs.value]
    for (const list of expanded.value.values()) all.push(...list)
    return buildFlowGraph(all, {
      asset: asset.value,
      fromMs: dayMs(fromDate.value, false),
      toMs: dayMs(toDate.value, true),
      watchLabels: watchLabels.value,
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
  const probed = shallowRef<Map<string, Transaction[] | null>>(new Map())
  let probing: Promise<void> = Promise.resolve()

  async function readCached(network: string, address: string): Promise<Transaction[] | null> {
    return (await readCachedPage(network, address))?.items ?? null
  }

  /** Finds out which of these addresses are cached, so their cost is known before they expand. */
  function probe(addresses: readonly string[]): Promise<void> {
    const r = root.value
    if (!r) return probing
    const todo = addresses.map((a) => a.toLowerCase()).filter((a) => !isLoaded(a) && !probed.value.has(a))
    if (todo.length === 0) return probing
    probing = probing.then(async () => {
      const found = new Map<string, Transaction[] | null>()
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
    if (root.value) void bridge.invoke('work.cancel', { scope: flowScope(root.value.network, root.value.address) })
    root.value = { network, address: a }
    expanded.value = new Map()
    probed.value = new Map()
    selected.value = null
    progress.value = { running: false, done: 0, total: 0, failed: [] }
  }

  /**
   * Loads the first page of each address, one at a time (the limiter paces them anyway), with
   * progress. Addresses already loaded cost nothing and are skipped.
   */
  async function expand(addresses: readonly string[]): Promise<void> {
    const r = root.value
    if (!r || progress.value.running) return
    const todo = [...new Set(addresses.map((a) => a.toLowerCase()))].filter((a) => !isLoaded(a))
    if (todo.length === 0) return
    progress.value = { running: true, done: 0, total: todo.length, failed: [] }
    for (const address of todo) {
      // A cached page costs nothing; only an address main has never loaded is asked for.
      const cached = probed.value.get(address) ?? (await readCached(r.network, address))
      if (root.value !== r) return
      if (cached) {
        const next = new Map(expanded.value)
        next.set(address, cached)
        expanded.value = next
        progress.value = { ...progress.value, done: progress.value.done + 1 }
        continue
      }
      const result = await bridge.invoke('data.transactions', {
        network: r.network,
        address,
        cursor: null,
        priority: 'prefetch',
        scope: flowScope(r.network, r.address),
        refresh: false,
        cacheOnly: false,
      })
      if (root.value !== r) return
      if (result.ok) {
        const next = new Map(expanded.value)
        next.set(address, result.value.items)
        expanded.value = next
      } else if (result.error.kind === 'cancelled') {
        progress.value = { ...progress.value, running: false }
        return
      } else
        progress.value = { ...progress.value, failed: [...progress.value.failed, { address, error: result.error }] }
      progress.value = { ...progress.value, done: progress.value.done + 1 }
    }
    progress.value = { ...progress.value, running: false }
  }

  function cancel(): void {
    if (root.value) void bridge.invoke('work.cancel', { scope: flowScope(root.value.network, root.value.address) })
  }

  const pathFrom = ref('')
  const pathTo = ref('')
  const pathHops = ref(4)
  /** Off: only chains along which value moved from A towards B. */
  const pathUndirected = ref(false)
  const path = shallowRef<ReturnType<typeof findPath> | undefined>(undefined)
  function searchPath(): void {
    path.value = findPath(graph.value.edges, pathFrom.value.trim(), pathTo.value.trim(), {
      maxHops: pathHops.value,
      undirected: pathUndirected.value,
    })
  }

  return {
    root,
    expanded,
    progress,
    asset,
    minAmount,
    fromDate,
    toDate,
    direction,
    hops,
    hubThreshold,
    selected,
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
    searchPath,
  }
})

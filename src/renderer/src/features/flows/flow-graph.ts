import type { AddressObject, Transaction } from '@shared/domain/service-schemas'
import { displayName } from '@shared/domain/display-name'
import { internalMovements, type InternalByHash } from '../../platform/traced-internal'
import { NATIVE, movementsOf } from '@shared/domain/movements'

/** An address in the graph, with what the loaded items say about it. */
export interface FlowNode {
  /** Lowercase. */
  address: string
  /** The item's best name (service name, ENS, first tag), shown through `displayName`. */
  label: string | null
  /** The user's own watchlist label: shown before the item's. */
  watchLabel: string | null
  ens: string | null
  tags: string[]
  isContract: boolean
  isVerified: boolean
  /** A token contract some loaded transfer moved: a hub by nature. */
  isToken: boolean
}

/** Value moved from one address to another in one asset, summed over the loaded transactions. */
export interface FlowEdge {
  /** `from>to>asset`: unique in a graph. */
  id: string
  from: string
  to: string
  /** `NATIVE` or the lowercase token contract. */
  asset: string
  symbol: string
  decimals: number | null
  /** Smallest units, exact. */
  value: bigint
  /** Movements summed (a transaction with two transfers of the asset between them counts two). */
  count: number
  firstMs: number | null
  lastMs: number | null
  /** Of `count`, coin moved inside a traced transaction's call tree (marked "incl. internal"). */
  internal: number
}

export interface FlowGraph {
  nodes: Map<string, FlowNode>
  edges: FlowEdge[]
  /** Distinct transactions read (the same hash loaded for two addresses counts once). */
  transactions: number
  /** Transactions that failed: counted, but they moved nothing. */
  failed: number
  /** Transactions listing only their first token transfers: their edges may be short. */
  overflowed: number
  /** Assets seen, for the asset filter (before it applies). */
  assets: { asset: string; symbol: string; decimals: number | null }[]
}

export interface BuildOptions {
  /** Only this asset (`NATIVE` or a token contract); null for all. */
  asset?: string | null
  /** Only movements at or after / before this time; a movement with no time is then left out. */
  fromMs?: number | null
  toMs?: number | null
  /** Watchlist labels by lowercase address. */
  watchLabels?: ReadonlyMap<string, string>
  /**
   * The traced internal transfers of loaded transactions, by hash: added as coin edges marked
   * internal (docs/decisions/internal-transfers-in-flows.md). Depth 0 is the transaction's own
   * value, already counted from the item: skipped, so nothing counts twice.
   */
  internal?: InternalByHash
}

function emptyNode(address: string, watchLabel: string | null): FlowNode {
  return {
    address,
    label: null,
    watchLabel,
    ens: null,
    tags: [],
    isContract: false,
    isVerified: false,
    isToken: false,
  }
}

function tagsOf(party: AddressObject): string[] {
  const out: string[] = []
  for (const list of [party.public_tags, party.private_tags]) {
    for (const t of list ?? []) {
      const text = typeof t === 'string' ? displayName(t) : (displayName(t.display_name) ?? displayName(t.label))
      if (text) out.push(text)
    }
  }
  return out
}

/**
 * The flow graph of the loaded transactions: every movement with a sender and a receiver that
 * moved value (`movementsOf`: the counterparties table's reading) becomes part of one edge per
 * sender, receiver and asset. Left out: failed transactions (they moved nothing), movements of
 * zero (contract calls without value; zero-value token transfers, the address-poisoning kind),
 * self-transfers, and value into a contract creation (the item names no receiver).
 */
export function buildFlowGraph(txs: Iterable<Transaction>, options: BuildOptions = {}): FlowGraph {
  const watch = options.watchLabels ?? new Map<string, string>()
  const nodes = new Map<string, FlowNode>()
  const edges = new Map<string, FlowEdge>()
  const assets = new Map<string, { asset: string; symbol: string; decimals: number | null }>()
  const seen = new Set<string>()
  let failed = 0
  let overflowed = 0
  let transactions = 0

  const node = (address: string, party: AddressObject | null, label: string | null): FlowNode => {
    let n = nodes.get(address)
    if (!n) {
      n = emptyNode(address, watch.get(address) ?? null)
      nodes.set(address, n)
    }
    if (label && !n.label) n.label = label
    if (party) {
      n.ens ??= displayName(party.ens_domain_name)
      for (const t of tagsOf(party)) if (!n.tags.includes(t)) n.tags.push(t)
      if (party.is_contract === true) n.isContract = true
      if (party.is_verified === true) n.isVerified = true
    }
    return n
  }

  for (const tx of txs) {
    if (!tx || typeof tx !== 'object') continue
    if (typeof tx.hash === 'string') {
      if (seen.has(tx.hash)) continue
      seen.add(tx.hash)
    }
    transactions++
    const m = movementsOf(tx)
    if (m.failed) failed++
    if (m.overflow) overflowed++
    if (m.failed) continue
    const inWindow =
      (options.fromMs == null || (m.ms !== null && m.ms >= options.fromMs)) &&
      (options.toMs == null || (m.ms !== null && m.ms <= options.toMs))
    const moves = m.movements.map((mv) => ({ mv, internal: false }))
    for (const mv of internalMovements(tx, options.internal)) moves.push({ mv, internal: true })
    for (const { mv, internal } of moves) {
      if (!mv.from || !mv.to || mv.from === mv.to || mv.value <= 0n) continue
      if (!assets.has(mv.asset)) assets.set(mv.asset, { asset: mv.asset, symbol: mv.symbol, decimals: mv.decimals })
      if (!inWindow || (options.asset != null && options.asset !== mv.asset)) continue
      node(mv.from, mv.fromParty, mv.fromLabel)
      node(mv.to, mv.toParty, mv.toLabel)
      const id = `${mv.from}>${mv.to}>${mv.asset}`
      let e = edges.get(id)
      if (!e) {
        e = {
          id,
          from: mv.from,
          to: mv.to,
          asset: mv.asset,
          symbol: mv.symbol,
          decimals: mv.decimals,
          value: 0n,
          count: 0,
          firstMs: null,
          lastMs: null,
          internal: 0,
        }
        edges.set(id, e)
      }
      e.value += mv.value
      e.count++
      if (internal) e.internal++
      if (m.ms !== null) {
        if (e.firstMs === null || m.ms < e.firstMs) e.firstMs = m.ms
        if (e.lastMs === null || m.ms > e.lastMs) e.lastMs = m.ms
      }
    }
  }
  // Marked at the end: a token contract may show up as a party before any transfer of it.
  for (const n of nodes.values()) if (n.address !== NATIVE && assets.has(n.address)) n.isToken = true
  return { nodes, edges: [...edges.values()], transactions, failed, overflowed, assets: [...assets.values()] }
}

/** The name to show for a node: the user's label first, then the item's, else none (show the address). */
export function nodeName(n: FlowNode): string | null {
  return n.watchLabel ?? n.label ?? n.ens
}

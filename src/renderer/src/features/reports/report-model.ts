import type { BalanceItem, Transaction } from '@shared/domain/service-schemas'
import type { ApprovalRow } from '@shared/domain/approvals-view'
import type { CaseFile } from '@shared/domain/case-file'
import type { ReportSource } from './report-sources'
import { checksumAddress } from '@shared/domain/address'
import { formatUnits, parseAmount } from '@shared/domain/amount'
import { NATIVE } from '@shared/domain/movements'
import { assetsFromBalances, balanceHistory, type AssetNow, type HistoryPoint, sampleExtremes } from '../analysis'
import { buildFlowGraph, nodeName, type FlowEdge, type FlowGraph, collapseHubs, limitFlows } from '../flows'

/**
 * One address in a report, with the data the app already holds for it (nothing here asks the
 * network). `fetchedAt` times come from main's answers: every figure says how old it is.
 */
export interface ReportSubject {
  network: string
  networkLabel: string
  /** Lowercase. */
  address: string
  /** What the analyst calls it (case label, watchlist label); untrusted text, escaped when written. */
  label: string | null
  note: string | null
  transactions: readonly Transaction[]
  /** When the transactions were fetched from the service; null when none are kept. */
  transactionsFetchedAt: string | null
  /** Today's token balances, when loaded, and when they were fetched. */
  balances: { items: readonly BalanceItem[]; fetchedAt: string } | null
  /** Watchlist labels by lowercase address on this network, shown first on graph nodes. */
  watchLabels?: ReadonlyMap<string, string>
  /**
   * The cached first pages of the addresses the flow graph expanded on this network: the graph
   * and its flows are drawn from these as well, as the app's graph is.
   */
  expanded?: readonly ExpandedPage[]
  /** Hops the graph is drawn to (the saved graph's limit); `REPORT_HOPS` when not given. */
  hops?: number
  /** The coin balance main fetched (`eth_getBalance`), in wei, and when; null: not loaded. */
  coin?: { wei: string; fetchedAt: string } | null
  /** The approvals main found for it (cached), when any. */
  approvals?: { rows: readonly ApprovalRow[]; fetchedAt: string | null } | null
  /** The data behind its figures as the service sent it, for an evidence bundle. */
  sources?: readonly ReportSource[]
}

/** Who made a report, with what and from where (never the key). */
export interface ReportProvenance {
  profile: string
  /** The service's host (no path, no query). */
  host: string
  networks: readonly { name: string; label: string; chainId: string | null }[]
  app: { name: string; version: string }
  /** The name the user gave, if any. */
  by: string | null
  timeZone: string
}

/** An address the flow graph expanded, with its page as main cached it. */
export interface ExpandedPage {
  network: string
  networkLabel: string
  /** Lowercase. */
  address: string
  transactions: readonly Transaction[]
  /** When its page was fetched; null when it is not kept on this computer (nothing to show). */
  fetchedAt: string | null
  sources?: readonly ReportSource[]
}

export interface ReportInput {
  title: string
  /** ISO time the report was made. */
  generatedAt: string
  subjects: readonly ReportSubject[]
  notes: string
  provenance?: ReportProvenance
  /** The case reported: its path questions, labels, notes and activity log. */
  caseFile?: CaseFile
  /** The SHA-256 of the evidence bundle's manifest (its core), stated in the report. */
  manifestHash?: string
}

export interface HistoryFigure {
  symbol: string
  /** True: real balances (today's balance known); false: net change since the oldest loaded. */
  absolute: boolean
  points: HistoryPoint[]
  fromMs: number
  toMs: number
  low: string
  high: string
}

export interface SubjectFigures {
  graph: FlowGraph
  /** Edges within the hop limit of the address, busy hubs folded, largest movement count first. */
  edges: FlowEdge[]
  distance: Map<string, number>
  hubs: Map<string, number>
  histories: HistoryFigure[]
  /** Hops drawn. */
  hops: number
}

/** Hops a report draws: the address's counterparties and theirs, as far as data is loaded. */
const REPORT_HOPS = 2
/** Balance lines per address: the assets with the most changes. */
const REPORT_CHARTS = 4
/** Points per drawn line: enough for a page width. */
const REPORT_POINTS = 240

const amount = (v: bigint, decimals: number | null, symbol: string): string =>
  `${formatUnits(v, decimals ?? 0)} ${symbol}`

/**
 * The figures of one address, worked out by the same code the app's views use: the flow graph
 * (`buildFlowGraph`, `limitFlows`, `collapseHubs`) and the balance history with its sampling.
 * Without today's balances the history line is the net change since the oldest loaded
 * transaction (exact, from the transactions alone) and says so, rather than a guessed balance.
 */
export function subjectFigures(s: ReportSubject): SubjectFigures {
  const expanded = s.expanded ?? []
  // A transaction on two loaded pages counts once: buildFlowGraph keeps one per hash.
  const all = [...s.transactions, ...expanded.flatMap((p) => p.transactions)]
  const graph = buildFlowGraph(all, { watchLabels: s.watchLabels })
  const hops = s.hops ?? REPORT_HOPS
  const limited = limitFlows(graph.edges, s.address, { hops, direction: 'both', minAmount: '' })
  // As in the app's graph, the address and the addresses expanded never fold into a hub.
  const keep = new Set([s.address, ...expanded.map((p) => p.address)])
  const folded = collapseHubs(limited.edges, graph.nodes, keep)
  for (const h of folded.hidden) limited.distance.delete(h)

  const known: AssetNow[] = s.balances ? assetsFromBalances(s.balances.items) : []
  const absolute = new Set(known.map((a) => a.key))
  // The coin's balance comes from eth_getBalance (not the balances answer): with it the coin's
  // line is its balance, as the app shows; without it, a net change that says so.
  const coin = s.coin ? parseAmount(s.coin.wei) : null
  if (coin !== null) absolute.add(NATIVE)
  const now = [{ key: NATIVE, symbol: 'coin', decimals: 18, value: coin ?? 0n }, ...known]
  const nowMs = Date.parse(s.transactionsFetchedAt ?? '') || 0
  const history = balanceHistory(s.transactions, s.address, now, nowMs)
  const histories = history.assets
    .filter((a) => a.points.length > 2)
    .sort((a, b) => b.points.length - a.points.length)
    .slice(0, REPORT_CHARTS)
    .map((a): HistoryFigure => {
      const isAbsolute = absolute.has(a.key)
      const base = isAbsolute ? 0n : a.points[0]!.value
      // The line ends at the last change: the balance then holds until today, and a span out
      // to today would squeeze a burst of activity into a sliver at the left.
      const moved = a.points.at(-1)!.ms === nowMs ? a.points.slice(0, -1) : a.points
      const points = sampleExtremes(
        moved.map((p) => ({ ms: p.ms, value: p.value - base })),
        REPORT_POINTS,
      )
      let lo = points[0]!.value
      let hi = lo
      for (const p of points) {
        if (p.value < lo) lo = p.value
        if (p.value > hi) hi = p.value
      }
      return {
        symbol: a.symbol,
        absolute: isAbsolute,
        points,
        fromMs: points[0]!.ms,
        toMs: points.at(-1)!.ms,
        low: amount(lo, a.decimals, a.symbol),
        high: amount(hi, a.decimals, a.symbol),
      }
    })
  return { graph, edges: folded.edges, distance: limited.distance, hubs: folded.hubs, histories, hops }
}

/** The name a node is shown with: the user's label, the item's, else the address. */
export function nodeTitle(graph: FlowGraph, address: string): string {
  const n = graph.nodes.get(address)
  return (n && nodeName(n)) ?? checksummed(address)
}

/** The checksummed form; a malformed address (never from the schema) is shown as it came. */
export function checksummed(address: string): string {
  try {
    return checksumAddress(address)
  } catch {
    return address
  }
}

export { amount as amountText }

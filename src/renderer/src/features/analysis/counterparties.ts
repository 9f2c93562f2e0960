import type { Transaction } from '@shared/domain/service-schemas'
import { movementsOf } from '@shared/domain/movements'
import { internalMovements, type InternalByHash } from '../../platform/traced-internal'

/** Per token, what moved between the open address and one counterparty (smallest units). */
export interface TokenFlow {
  token: string
  symbol: string
  decimals: number | null
  in: bigint
  out: bigint
}

export interface Counterparty {
  /** Lowercase. */
  address: string
  /** Label from the item (service name, ENS, tag); the view prefers a watchlist label. */
  label: string | null
  /** Transactions in which value came from / went to it (a transaction counts once per direction). */
  txIn: number
  txOut: number
  /** Of those, failed: counted, but their value is left out of every amount. */
  failed: number
  /** Native coin in wei. */
  nativeIn: bigint
  nativeOut: bigint
  tokens: TokenFlow[]
  /** Token transfers with it (from `token_transfers`). */
  transfers: number
  /**
   * Coin transfers with it inside traced transactions (counted in `nativeIn`/`nativeOut`, marked
   * "internal"): docs/decisions/internal-transfers-in-flows.md.
   */
  internal: number
  firstSeenMs: number | null
  lastSeenMs: number | null
}

export interface CounterpartySummary {
  rows: Counterparty[]
  transactions: number
  failed: number
  /** Transactions or transfers from the address to itself: no counterparty, no net flow. */
  selfTransfers: number
  /** Transactions listing only their first token transfers: amounts may be incomplete. */
  overflowed: number
}

interface Acc extends Omit<Counterparty, 'tokens'> {
  tokens: Map<string, TokenFlow>
  /** Index of the last transaction counted, per direction, so each counts once. */
  lastIn: number
  lastOut: number
  lastFailed: number
}

/**
 * Who the address dealt with, over the loaded transactions. Top-level `from`/`to`
 * with the native value, and every token transfer, count (`movementsOf`); exact bigint sums throughout. A
 * failed transaction counts (the attempt happened) but moves no value; a self-transfer has
 * no counterparty and is only counted in the summary. With `asset` (a movement's asset key:
 * `NATIVE` or a lowercase token contract) only movements of that asset count: a transaction
 * kept by a token filter may move other tokens too, and those are not what was asked.
 * With `internal`, the coin a traced transaction moved to or from the address inside its call
 * tree (depth >= 1; depth 0 is the item's own value) counts too, as native, marked internal.
 */
export function counterparties(
  items: readonly Transaction[],
  address: string,
  asset: string | null = null,
  internal: InternalByHash | null = null,
): CounterpartySummary {
  const me = address.toLowerCase()
  const acc = new Map<string, Acc>()
  let failedCount = 0
  let selfTransfers = 0
  let overflowed = 0

  const touch = (
    who: string,
    label: string | null,
    { i, dir, failed, ms }: { i: number; dir: 'in' | 'out'; failed: boolean; ms: number | null },
  ): Acc => {
    let a = acc.get(who)
    if (!a) {
      a = {
        address: who,
        label: null,
        txIn: 0,
        txOut: 0,
        failed: 0,
        nativeIn: 0n,
        nativeOut: 0n,
        tokens: new Map(),
        transfers: 0,
        internal: 0,
        firstSeenMs: null,
        lastSeenMs: null,
        lastIn: -1,
        lastOut: -1,
        lastFailed: -1,
      }
      acc.set(who, a)
    }
    if (label && !a.label) a.label = label
    if (dir === 'in' && a.lastIn !== i) {
      a.lastIn = i
      a.txIn++
    } else if (dir === 'out' && a.lastOut !== i) {
      a.lastOut = i
      a.txOut++
    }
    if (failed && a.lastFailed !== i) {
      a.lastFailed = i
      a.failed++
    }
    if (ms !== null) {
      if (a.firstSeenMs === null || ms < a.firstSeenMs) a.firstSeenMs = ms
      if (a.lastSeenMs === null || ms > a.lastSeenMs) a.lastSeenMs = ms
    }
    return a
  }

  items.forEach((tx, i) => {
    if (!tx || typeof tx !== 'object') return
    const { failed, ms, overflow, movements } = movementsOf(tx)
    if (failed) failedCount++
    if (overflow) overflowed++
    const inner = failed ? [] : internalMovements(tx, internal)
    for (const m of [...movements, ...inner]) {
      if (asset !== null && m.asset !== asset) continue
      if (m.from === me && m.to === me) {
        selfTransfers++
        continue
      }
      let who: string | null = null
      let dir: 'in' | 'out' = 'in'
      let label: string | null = null
      if (m.from === me && m.to) [who, dir, label] = [m.to, 'out', m.toLabel]
      else if (m.to === me && m.from) [who, dir, label] = [m.from, 'in', m.fromLabel]
      if (!who) continue
      const a = touch(who, label, { i, dir, failed, ms })
      if (m.kind === 'native') {
        if (inner.includes(m)) a.internal++
        if (dir === 'in') a.nativeIn += m.value
        else a.nativeOut += m.value
        continue
      }
      a.transfers++
      if (failed) continue
      let flow = a.tokens.get(m.asset)
      if (!flow) {
        flow = { token: m.asset, symbol: m.symbol, decimals: m.decimals, in: 0n, out: 0n }
        a.tokens.set(m.asset, flow)
      }
      if (dir === 'in') flow.in += m.value
      else flow.out += m.value
    }
  })

  const rows: Counterparty[] = []
  for (const a of acc.values()) {
    const { lastIn: _i, lastOut: _o, lastFailed: _f, tokens, ...rest } = a
    rows.push({ ...rest, tokens: [...tokens.values()] })
  }
  return { rows, transactions: items.length, failed: failedCount, selfTransfers, overflowed }
}

export type CounterpartySort = 'txs' | 'native' | 'transfers' | 'first' | 'last' | 'address'

/** Sorted copy; ties keep a stable order by address so the table never shuffles. */
export function sortCounterparties(
  rows: readonly Counterparty[],
  key: CounterpartySort,
  dir: 'asc' | 'desc',
): Counterparty[] {
  const sign = dir === 'asc' ? 1 : -1
  const cmpBig = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0)
  const by: Record<CounterpartySort, (a: Counterparty, b: Counterparty) => number> = {
    txs: (a, b) => a.txIn + a.txOut - (b.txIn + b.txOut),
    native: (a, b) => cmpBig(a.nativeIn + a.nativeOut, b.nativeIn + b.nativeOut),
    transfers: (a, b) => a.transfers - b.transfers,
    first: (a, b) => (a.firstSeenMs ?? 0) - (b.firstSeenMs ?? 0),
    last: (a, b) => (a.lastSeenMs ?? 0) - (b.lastSeenMs ?? 0),
    address: (a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0),
  }
  return [...rows].sort((a, b) => sign * by[key](a, b) || (a.address < b.address ? -1 : 1))
}

/**
 * The longest search text (characters): longer than any address, label or symbol worth
 * searching for. The search box stops there, and a longer one in the address page's URL is left out.
 */
export const CP_TEXT_MAX = 100

/** Filter by address prefix/substring, label or token symbol (case-insensitive). */
export function filterCounterparties(
  rows: readonly Counterparty[],
  query: string,
  labelOf: (c: Counterparty) => string | null,
): Counterparty[] {
  const q = query.trim().toLowerCase()
  if (!q) return [...rows]
  return rows.filter(
    (c) =>
      c.address.includes(q) ||
      (labelOf(c)?.toLowerCase().includes(q) ?? false) ||
      c.tokens.some((t) => t.symbol.toLowerCase().includes(q)),
  )
}

import type { Transaction } from '@shared/domain/service-schemas'
import { formatUnits } from '@shared/domain/amount'
import { formatCsv } from '@shared/csv'
import { transfersOf, type TransferFlow } from '@shared/domain/transfers'
import type { AddressFilters } from './address-filters'

/** One token transfer that touches the open address: the adapter's flow and where it sits. */
export interface TransferRow extends TransferFlow {
  /** Unique in the list: transaction hash and the transfer's place in it. */
  key: string
  txHash: string
  /** NaN while pending. */
  ms: number
  direction: 'in' | 'out' | 'self'
  /** The service listed only this transaction's first transfers (`token_transfers_overflow`). */
  cut: boolean
}

export interface TransferList {
  rows: TransferRow[]
  /** Hashes of transactions touching the address whose transfers the service cut. */
  cut: string[]
}

/**
 * Every token transfer of the given transactions that touches the address, one row each, in
 * the transactions' order. Token and counterparty filters apply per transfer too: a swap
 * found by its USDC leg lists that leg, not its other tokens.
 */
export function transferRows(
  items: readonly Transaction[],
  address: string,
  f: Pick<AddressFilters, 'token' | 'party'> = { token: null, party: null },
): TransferList {
  const me = address.toLowerCase()
  const rows: TransferRow[] = []
  const cut: string[] = []
  const byTx = memoFor(me)
  for (const tx of items) {
    let mine = byTx.get(tx)
    if (!mine) {
      mine = rowsOf(tx, me)
      byTx.set(tx, mine)
    }
    if (mine.cut) cut.push(tx.hash)
    for (const r of mine.rows) {
      if (f.token !== null && r.token !== f.token) continue
      if (f.party !== null && r.from !== f.party && r.to !== f.party) continue
      rows.push(r)
    }
  }
  return { rows, cut }
}

/** One transaction's rows for one address: built once, as a transaction never changes once read. */
function rowsOf(tx: Transaction, me: string): { rows: TransferRow[]; cut: boolean } {
  const { flows, overflow } = transfersOf(tx)
  const rows: TransferRow[] = []
  const ms = typeof tx.timestamp === 'string' ? Date.parse(tx.timestamp) : Number.NaN
  flows.forEach((fl, i) => {
    if (fl.from !== me && fl.to !== me) return
    rows.push({
      ...fl,
      key: `${tx.hash}:${i}`,
      txHash: tx.hash,
      ms,
      direction: fl.from === me && fl.to === me ? 'self' : fl.to === me ? 'in' : 'out',
      cut: overflow,
    })
  })
  return { rows, cut: overflow }
}

const memo = new Map<string, WeakMap<Transaction, { rows: TransferRow[]; cut: boolean }>>()
function memoFor(me: string): WeakMap<Transaction, { rows: TransferRow[]; cut: boolean }> {
  let m = memo.get(me)
  if (!m) {
    // A handful of addresses are open in a session; old ones go so memory stays bounded.
    if (memo.size >= 8) memo.clear()
    m = new WeakMap()
    memo.set(me, m)
  }
  return m
}

export type TransferSort = 'time' | 'token' | 'amount' | 'from' | 'to'

const str = (a: string | null, b: string | null): number => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0)

/**
 * Amounts of tokens with different decimals compared as what they are worth in whole tokens:
 * a·10^db against b·10^da, exact in bigint.
 */
function compareAmount(a: TransferRow, b: TransferRow): number {
  const x = a.value * 10n ** BigInt(b.decimals ?? 0)
  const y = b.value * 10n ** BigInt(a.decimals ?? 0)
  return x < y ? -1 : x > y ? 1 : 0
}

/** Sorted copy; ties keep the list's order (the sort is stable), so rows never shuffle. */
export function sortTransfers(rows: readonly TransferRow[], key: TransferSort, dir: 'asc' | 'desc'): TransferRow[] {
  const sign = dir === 'asc' ? 1 : -1
  const by: Record<TransferSort, (a: TransferRow, b: TransferRow) => number> = {
    // Pending ones (no time) are the newest.
    time: (a, b) => (Number.isNaN(a.ms) ? Infinity : a.ms) - (Number.isNaN(b.ms) ? Infinity : b.ms) || 0,
    token: (a, b) => str(a.symbol.toLowerCase(), b.symbol.toLowerCase()) || str(a.token, b.token),
    amount: compareAmount,
    from: (a, b) => str(a.from, b.from),
    to: (a, b) => str(a.to, b.to),
  }
  return [...rows].sort((a, b) => sign * by[key](a, b))
}

const COLUMNS = [
  'transaction',
  'timestamp',
  'direction',
  'token_address',
  'symbol',
  'type',
  'decimals',
  'value_raw',
  'amount',
  'token_id',
  'from',
  'from_name',
  'to',
  'to_name',
  'transfers_cut_by_service',
]

/**
 * The rows as CSV through the shared writer (its formula guard keeps a token symbol such as
 * "=HYPERLINK(…)" from running in a spreadsheet). Amounts exact: the raw integer and the
 * decimal text, never a float.
 */
export function transfersCsv(rows: readonly TransferRow[]): string {
  const lines: unknown[][] = [COLUMNS]
  for (const r of rows)
    lines.push([
      r.txHash,
      Number.isNaN(r.ms) ? '' : new Date(r.ms).toISOString(),
      r.direction,
      r.token,
      r.symbol,
      r.type,
      r.decimals ?? '',
      r.value.toString(),
      formatUnits(r.value, r.decimals ?? 0, { group: false }),
      r.tokenId ?? '',
      r.from ?? '',
      r.fromLabel ?? '',
      r.to ?? '',
      r.toLabel ?? '',
      r.cut ? 'yes' : 'no',
    ])
  return formatCsv(lines)
}

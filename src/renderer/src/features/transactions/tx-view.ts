import { shortHash } from '@shared/domain/short-hash'
import type { AddressObject, AddressTag, Transaction } from '@shared/domain/service-schemas'
import { checksumAddress, sameAddress } from '@shared/domain/address'
import { displayName } from '@shared/domain/display-name'
import { isFailed, isPending } from '@shared/domain/tx-state'

export type Direction = 'in' | 'out' | 'self' | 'other'

/**
 * Direction relative to the open address. A transaction that only moves tokens to or from it
 * (it is neither sender nor recipient) takes the direction of those transfers.
 */
export function directionOf(tx: Transaction, address: string): Direction {
  const sent = sameAddress(tx.from.hash, address)
  const received = tx.to !== null && sameAddress(tx.to.hash, address)
  if (sent && received) return 'self'
  if (sent) return 'out'
  if (received) return 'in'
  let incoming = false
  let outgoing = false
  for (const t of tx.token_transfers ?? []) {
    if (sameAddress(t.to.hash, address)) incoming = true
    if (sameAddress(t.from.hash, address)) outgoing = true
  }
  if (incoming && outgoing) return 'self'
  if (incoming) return 'in'
  if (outgoing) return 'out'
  return 'other'
}

export const DIRECTION_LABEL: Record<Direction, string> = { in: 'In', out: 'Out', self: 'Self', other: 'Other' }

export interface PartyView {
  /** Checksummed address, or null for a missing party (contract creation). */
  address: string | null
  /** The service's name or ENS name as shown (`displayName`): never readable as an address. */
  name: string | null
  isContract: boolean
  isVerified: boolean
  short: string
}

/** Checksums cost a keccak each; the same few addresses recur on every row of a list. */
const checksums = new Map<string, string>()
function checksumCached(lower: string): string {
  let v = checksums.get(lower)
  if (v === undefined) {
    if (checksums.size >= 5000) checksums.clear()
    v = checksumAddress(lower)
    checksums.set(lower, v)
  }
  return v
}

/** A tag as shown: its display name, else its label (Blockscout objects) or the string (spec). */
export function tagText(tag: AddressTag): string {
  if (typeof tag === 'string') return displayName(tag) ?? ''
  return displayName(tag.display_name) ?? displayName(tag.label) ?? displayName(JSON.stringify(tag)) ?? ''
}

export function partyView(party: AddressObject | null | undefined): PartyView {
  if (!party) return { address: null, name: null, isContract: false, isVerified: false, short: '—' }
  const address = checksumCached(party.hash.toLowerCase())
  const name = displayName(party.name) ?? displayName(party.ens_domain_name)
  return {
    address,
    name,
    isContract: party.is_contract === true,
    isVerified: party.is_verified === true,
    short: shortHash(address),
  }
}

/** The method column: the decoded method, else the 4-byte selector, else the kind. */
export function methodLabel(tx: Transaction): string {
  if (tx.method) return tx.method
  if (tx.raw_input.length >= 10) return tx.raw_input.slice(0, 10)
  return tx.tx_types.includes('coin_transfer') ? 'transfer' : (tx.tx_types[0] ?? '—')
}

export type TxState = 'pending' | 'ok' | 'failed'

export function txState(tx: Transaction): TxState {
  return isPending(tx) ? 'pending' : isFailed(tx) ? 'failed' : 'ok'
}

export function statusLabel(tx: Transaction): string {
  if (isPending(tx)) return 'Pending'
  if (!isFailed(tx)) return 'Success'
  return tx.result && tx.result !== 'success' ? `Failed: ${tx.result}` : 'Failed'
}

export type StatusFilter = 'all' | 'ok' | 'failed'
export type DirectionFilter = 'all' | Direction

export interface TxFilter {
  direction: DirectionFilter
  type: string
  status: StatusFilter
}

export function isFilterOff(f: TxFilter): boolean {
  return f.direction === 'all' && f.type === 'all' && f.status === 'all'
}

export function matchesFilter(tx: Transaction, address: string, f: TxFilter): boolean {
  if (f.direction !== 'all' && directionOf(tx, address) !== f.direction) return false
  if (f.type !== 'all' && !tx.tx_types.includes(f.type)) return false
  if (f.status === 'ok' && txState(tx) !== 'ok') return false
  if (f.status === 'failed' && !isFailed(tx)) return false
  return true
}

export function filterTransactions(
  items: readonly Transaction[],
  address: string,
  f: TxFilter,
): readonly Transaction[] {
  return isFilterOff(f) ? items : items.filter((tx) => matchesFilter(tx, address, f))
}

export interface ActivityBucket {
  /** Start of the bucket, UTC, as a label ("2026-11-22" or "2026-11-22 14:00"). */
  label: string
  startMs: number
  in: number
  out: number
  other: number
}

const BUCKETS_MS = [
  60_000,
  600_000,
  3_600_000,
  6 * 3_600_000,
  86_400_000,
  7 * 86_400_000,
  30 * 86_400_000,
  365 * 86_400_000,
]

/**
 * Transactions over time by direction, oldest first, in the smallest bucket size (a minute to
 * a year) that needs at most `maxBuckets` bars; empty buckets are filled so gaps show.
 */
export function activityBuckets(
  items: readonly Transaction[],
  address: string,
  maxBuckets = 60,
): { bucketMs: number; buckets: ActivityBucket[] } {
  const points: { ms: number; d: Direction }[] = []
  let min = Infinity
  let max = -Infinity
  for (const tx of items) {
    // Pending transactions have no time yet: they are not on the chart.
    const ms = tx.timestamp === null ? Number.NaN : Date.parse(tx.timestamp)
    if (Number.isNaN(ms)) continue
    points.push({ ms, d: directionOf(tx, address) })
    if (ms < min) min = ms
    if (ms > max) max = ms
  }
  if (points.length === 0) return { bucketMs: 86_400_000, buckets: [] }
  const bucketMs =
    BUCKETS_MS.find((b) => Math.floor(max / b) - Math.floor(min / b) + 1 <= maxBuckets) ??
    BUCKETS_MS[BUCKETS_MS.length - 1]!
  const first = Math.floor(min / bucketMs)
  const count = Math.floor(max / bucketMs) - first + 1
  const buckets: ActivityBucket[] = Array.from({ length: Math.min(count, maxBuckets * 2) }, (_, i) => {
    const startMs = (first + i) * bucketMs
    const iso = new Date(startMs).toISOString()
    return {
      label: bucketMs >= 86_400_000 ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`,
      startMs,
      in: 0,
      out: 0,
      other: 0,
    }
  })
  for (const p of points) {
    const b = buckets[Math.floor(p.ms / bucketMs) - first]
    if (!b) continue
    if (p.d === 'in') b.in++
    else if (p.d === 'out') b.out++
    else b.other++
  }
  return { bucketMs, buckets }
}

import type { Transaction } from '@shared/domain/service-schemas'
import { DAY_MS, utcDayStartMs } from '@shared/domain/utc-day'

/** The coin's key in a token filter: transactions that move the native coin to or from the address. */
export const COIN = 'coin'

/**
 * The questions asked of one address's transactions: only this token, only this counterparty,
 * only these days (UTC, both ends included). Null means "any". Addresses are lowercase.
 */
export interface AddressFilters {
  /** A lowercase token contract address, or COIN. */
  token: string | null
  /** A lowercase address on the other side of a transaction or of one of its token transfers. */
  party: string | null
  /** First and last day, "YYYY-MM-DD" (UTC). */
  fromDay: string | null
  toDay: string | null
}

export const NO_FILTERS: AddressFilters = { token: null, party: null, fromDay: null, toDay: null }

export function hasFilters(f: AddressFilters): boolean {
  return f.token !== null || f.party !== null || f.fromDay !== null || f.toDay !== null
}

/**
 * What a filter reads of one transaction, worked out once per transaction and address: the
 * lowercase parties and tokens, so filtering 100,000 rows is a plain pass over arrays with no
 * string case changes, regexes or bigint parsing on the way.
 */
export interface TxKeys {
  /** Time in ms, NaN when pending; worked out on the first date filter only (undefined until then). */
  ms: number | undefined
  /** Tokens of the transfers that touch the address, plus COIN when coin moved to or from it. */
  tokens: string[]
  /** Everyone else on a side of the transaction or of a transfer touching the address. */
  parties: string[]
}

const lower = (v: unknown): string | null => (typeof v === 'string' ? v.toLowerCase() : null)

function txKeys(tx: Transaction, me: string): TxKeys {
  const tokens: string[] = []
  const parties: string[] = []
  const add = (list: string[], v: string | null): void => {
    if (v !== null && v !== me && !list.includes(v)) list.push(v)
  }
  const from = lower(tx.from?.hash)
  const to = lower(tx.to?.hash)
  add(parties, from)
  add(parties, to)
  if ((from === me || to === me) && typeof tx.value === 'string' && /[1-9]/.test(tx.value)) tokens.push(COIN)
  for (const t of tx.token_transfers ?? []) {
    const tf = lower(t.from?.hash)
    const tt = lower(t.to?.hash)
    if (tf !== me && tt !== me) continue
    const token = lower(t.token?.address)
    if (token !== null && !tokens.includes(token)) tokens.push(token)
    add(parties, tf)
    add(parties, tt)
  }
  return { ms: undefined, tokens, parties }
}

/** Keys per address: a transaction object is parsed once and never changes afterwards. */
const cache = new Map<string, WeakMap<Transaction, TxKeys>>()

export function keysOf(tx: Transaction, me: string): TxKeys {
  let byTx = cache.get(me)
  if (!byTx) {
    // A handful of addresses are open in a session; old ones go so memory stays bounded.
    if (cache.size >= 8) cache.clear()
    byTx = new WeakMap()
    cache.set(me, byTx)
  }
  let k = byTx.get(tx)
  if (!k) {
    k = txKeys(tx, me)
    byTx.set(tx, k)
  }
  return k
}

/** First moment of a UTC day, and the first moment after it. */
const dayStartMs = (day: string): number => utcDayStartMs(day) ?? Number.NaN
export const dayEndMs = (day: string): number => dayStartMs(day) + DAY_MS

/** One transaction against the filters; the address is the open one (any case). */
export type TxPredicate = (tx: Transaction) => boolean

/**
 * The filters as one predicate, or null when none is set. A date range leaves pending
 * transactions out: they have no time yet, so they are on no day.
 */
export function filterPredicate(address: string, f: AddressFilters): TxPredicate | null {
  if (!hasFilters(f)) return null
  const me = address.toLowerCase()
  const { token, party } = f
  const from = f.fromDay !== null ? dayStartMs(f.fromDay) : -Infinity
  const until = f.toDay !== null ? dayEndMs(f.toDay) : Infinity
  const dated = f.fromDay !== null || f.toDay !== null
  return (tx) => {
    const k = keysOf(tx, me)
    if (token !== null && !k.tokens.includes(token)) return false
    if (party !== null && !k.parties.includes(party)) return false
    if (dated) {
      const ms = (k.ms ??= typeof tx.timestamp === 'string' ? Date.parse(tx.timestamp) : Number.NaN)
      if (!(ms >= from && ms < until)) return false
    }
    return true
  }
}

/** The transactions that answer the filters, in their order; the same array when none is set. */
export function filterByQuestions(
  items: readonly Transaction[],
  address: string,
  f: AddressFilters,
): readonly Transaction[] {
  const p = filterPredicate(address, f)
  return p ? items.filter(p) : items
}

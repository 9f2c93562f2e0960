import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { BalancesView } from '@shared/bridge/contract'
import { formatFiat } from '@shared/domain/amount'
import { toBalanceRow, totalFiat } from './balance-rows'
import { isRecord, readStored, writeStored } from '../../ui/persisted'
import { normaliseAddress } from '@shared/domain/address'

const KEY = 'chainscope.watch-summaries.v1'
const MAX = 500

/** The last known balance summary of an address, kept so a watchlist shows it without a request. */
export interface WatchSummary {
  fetchedAt: string
  tokens: number
  /** Fiat total in cents as a decimal string (bigint does not survive JSON), or null. */
  fiatCents: string | null
  /** The largest holdings by symbol, for a one-line summary. */
  top: string[]
  staleReason: BalancesView['staleReason']
  /** When main last served this saved copy for a failure (or Work offline), ISO; null when the last answer was fresh. */
  servedAt: string | null
}

const STALE_REASONS: readonly string[] = [
  'offline',
  'offline-by-choice',
  'quota',
  'rate-limited',
] satisfies NonNullable<BalancesView['staleReason']>[]
const isStaleReason = (v: unknown): v is NonNullable<BalancesView['staleReason']> =>
  typeof v === 'string' && STALE_REASONS.includes(v)

function summaryKey(network: string, address: string): string {
  return `${network}:${normaliseAddress(address)}`
}

function accept(value: unknown): Record<string, WatchSummary> | null {
  if (!isRecord(value)) return null
  const out: Record<string, WatchSummary> = {}
  for (const [k, v] of Object.entries(value)) {
    if (isRecord(v) && typeof v.fetchedAt === 'string' && typeof v.tokens === 'number' && Array.isArray(v.top)) {
      out[k] = {
        fetchedAt: v.fetchedAt,
        tokens: v.tokens,
        fiatCents: typeof v.fiatCents === 'string' && /^\d+$/.test(v.fiatCents) ? v.fiatCents : null,
        top: v.top.filter((t): t is string => typeof t === 'string').slice(0, 3),
        // Every reason main gives is kept, Work offline's too ("Offline by choice" on the row).
        staleReason: isStaleReason(v.staleReason) ? v.staleReason : null,
        servedAt: typeof v.servedAt === 'string' && !Number.isNaN(Date.parse(v.servedAt)) ? v.servedAt : null,
      }
    }
  }
  return out
}

function summarise(view: BalancesView, now = Date.now()): WatchSummary {
  const rows = view.items.map(toBalanceRow).filter((r) => r.amount.known && r.amount.value !== 0n)
  const fiat = totalFiat(rows)
  const top = [...rows]
    .sort((a, b) =>
      a.fiatCents === null
        ? 1
        : b.fiatCents === null
          ? -1
          : a.fiatCents > b.fiatCents
            ? -1
            : a.fiatCents < b.fiatCents
              ? 1
              : 0,
    )
    .slice(0, 3)
    .map((r) => r.symbol)
  return {
    fetchedAt: view.fetchedAt,
    tokens: rows.length,
    fiatCents: fiat === null ? null : fiat.toString(),
    top,
    staleReason: view.staleReason,
    servedAt: view.staleReason ? new Date(now).toISOString() : null,
  }
}

/** "3 tokens · USDC, WETH, GLD · $1,234.00" */
export function summaryText(s: WatchSummary): string {
  if (s.tokens === 0) return 'No tokens'
  const parts = [`${s.tokens} token${s.tokens === 1 ? '' : 's'}`]
  if (s.top.length) parts.push(s.top.join(', '))
  if (s.fiatCents !== null) parts.push(`$${formatFiat(BigInt(s.fiatCents))}`)
  return parts.join(' · ')
}

export const useWatchSummariesStore = defineStore('watchSummaries', () => {
  const byKey = ref<Record<string, WatchSummary>>(readStored(KEY, accept, {}))

  function record(view: BalancesView): void {
    const key = summaryKey(view.network, view.address)
    const previous = byKey.value[key]
    const made = summarise(view)
    // A snapshot must not replace a newer answer; served for a failure, it still says so.
    const older = previous && Date.parse(previous.fetchedAt) > Date.parse(view.fetchedAt)
    if (older && !view.staleReason) return
    const next = {
      ...byKey.value,
      [key]: older ? { ...previous, staleReason: made.staleReason, servedAt: made.servedAt } : made,
    }
    const keys = Object.keys(next)
    if (keys.length > MAX) {
      keys.sort((a, b) => Date.parse(next[a]!.fetchedAt) - Date.parse(next[b]!.fetchedAt))
      for (const k of keys.slice(0, keys.length - MAX)) delete next[k]
    }
    byKey.value = next
    writeStored(KEY, next)
  }

  function get(network: string, address: string): WatchSummary | null {
    return byKey.value[summaryKey(network, address)] ?? null
  }

  return { byKey, record, get }
})

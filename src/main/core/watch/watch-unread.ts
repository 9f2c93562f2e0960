import type { BlockRange } from './watch-plan'
import { MAX_UNREAD_RANGES } from './watch-state'

/**
 * The blocks a check left unread: windows are read newest first, so what a check cut short
 * (the quota reserve, the quota, an error) has not read is everything of its ranges below the
 * lowest block it read. Kept per network in the watch state and read at the next check, after
 * the blocks mined since (docs/decisions/watch-gap-routes.md).
 */

/** The parts of `ranges` below `low` (the lowest block read; Infinity when nothing was), newest first. */
export function unreadBelow(ranges: readonly BlockRange[], low: number): BlockRange[] {
  const out: BlockRange[] = []
  for (const r of [...ranges].sort((a, b) => b.to - a.to)) {
    if (r.from >= low) continue
    out.push({ from: r.from, to: Math.min(r.to, low - 1) })
  }
  return out
}

/**
 * At most MAX_UNREAD_RANGES ranges, newest first: beyond it the two oldest merge into one
 * (the blocks between them are read again; a delta there may count twice, a change is never missed).
 */
export function keepUnread(ranges: readonly BlockRange[]): BlockRange[] {
  const out = [...ranges].filter((r) => r.to >= r.from).sort((a, b) => b.to - a.to)
  while (out.length > MAX_UNREAD_RANGES) {
    const oldest = out.pop()!
    const next = out.pop()!
    out.push({ from: Math.min(oldest.from, next.from), to: Math.max(oldest.to, next.to) })
  }
  return out
}

/** "blocks 1-199,999 and 250,000-260,000": ranges as the user reads them. */
export function describeRanges(ranges: readonly BlockRange[]): string {
  const n = (x: number): string => x.toLocaleString('en')
  const parts = ranges.map((r) => (r.from === r.to ? n(r.from) : `${n(r.from)}-${n(r.to)}`))
  const list = parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`
  return `block${ranges.length === 1 && ranges[0]!.from === ranges[0]!.to ? '' : 's'} ${list}`
}

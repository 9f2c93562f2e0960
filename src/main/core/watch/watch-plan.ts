import { LOG_CALLS_PER_RANGE } from './watch-logs'

/**
 * How a check covers the blocks since the last one when they are more than one log range
 * (days away on a provider capping `eth_getLogs` at, say, 1,000 blocks). Both ways are
 * complete; the check takes the cheaper:
 *
 * - `logs`: the three transfer filters window by window, `cap` blocks a window;
 * - `reread`: each address's first transactions page (a change since the last check shows
 *   there: the service lists the transactions an address sent, received or moved tokens in)
 *   beside the coin balances the check reads anyway.
 *
 * Both count in the service's unit (`units`: what n calls cost sent in batches, batch caps
 * and billing included). A re-read costs one data request per address, whatever the gap.
 */
export type GapWay = 'logs' | 'reread'

export interface GapPlan {
  way: GapWay
  /** Block windows to scan (the `logs` way), first to last; empty for `reread`. */
  windows: { from: number; to: number }[]
  /** What the chosen way costs, in the service's unit (changed addresses' refetches not included). */
  units: number
  /** What the other way would have cost (told in the log). */
  otherUnits: number
}

export interface GapInput {
  /** First block not yet read, and the head the check reads to. */
  from: number
  to: number
  /** The largest block range the provider answers, or null while none was refused. */
  cap: number | null
  addresses: number
  /** What `calls` RPC calls cost in the service's unit. */
  rpcUnits: (calls: number) => number
}

/**
 * Block windows of at most `size` blocks covering [from, to], made one at a time: a head a
 * service reports may be any number up to 2^53, and its windows are never all held at once.
 */
export function* blockWindows(from: number, to: number, size: number | null): Generator<{ from: number; to: number }> {
  if (to < from) return
  if (size === null || size <= 0) {
    yield { from, to }
    return
  }
  for (let start = from; start <= to; start += size) yield { from: start, to: Math.min(to, start + size - 1) }
}

/** How many windows `blockWindows` makes, worked out rather than counted. */
export function windowCount(from: number, to: number, size: number | null): number {
  if (to < from) return 0
  if (size === null || size <= 0) return 1
  return Math.ceil((to - from + 1) / size)
}

export function planGap(input: GapInput): GapPlan {
  const count = windowCount(input.from, input.to, input.cap)
  const logUnits = input.rpcUnits(count * LOG_CALLS_PER_RANGE)
  // One data request per address: a GET is one unit in every billing mode.
  const rereadUnits = input.addresses
  // The logs way is taken only when it costs no more than a request per address (or is one
  // window), so the windows it lists are few.
  if (logUnits <= rereadUnits || count <= 1)
    return {
      way: 'logs',
      windows: [...blockWindows(input.from, input.to, input.cap)],
      units: logUnits,
      otherUnits: rereadUnits,
    }
  return { way: 'reread', windows: [], units: rereadUnits, otherUnits: logUnits }
}

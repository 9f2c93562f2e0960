import { LOG_CALLS_PER_RANGE } from './watch-logs'

/**
 * How a check covers the blocks it has not read yet (days away on a provider capping
 * `eth_getLogs` at, say, 1,000 blocks), planned by cost in the service's unit before anything
 * is sent. Both ways find every change; the check takes the cheaper (docs/decisions/watch-gap-routes.md):
 *
 * - `logs`: the three transfer filters window by window, `cap` blocks a window, newest first,
 *   whole windows batched up to the batch size the endpoint takes wherever a batch costs no
 *   more than its calls (one request for 16 windows billed per request, single calls where a
 *   batch costs one more);
 * - `balances`: each address's token balances from the data API (one GET, 1 unit in every
 *   mode) against the token balances the watch state holds, beside the coin balances the
 *   check reads anyway. Only where every address has such a snapshot.
 *
 * Never the addresses' transaction lists: a Blockscout-shaped service lists a token receipt
 * under the token transfers, not under the receiver's transactions (watch-receipts.ts).
 */
export type GapWay = 'logs' | 'balances'

/** An inclusive block range. */
export interface BlockRange {
  from: number
  to: number
}

export interface GapPlan {
  way: GapWay
  /** Log windows over the ranges (the `logs` way); 0 for `balances`. */
  windows: number
  /** Windows sent in one request (or one group of single calls) on the `logs` way. */
  windowsPerRequest: number
  /** What the chosen way costs, in the service's unit (changed addresses' refetches not included). */
  units: number
  /** What the other way would have cost (Infinity: it cannot find every change). */
  otherUnits: number
}

export interface GapInput {
  /** Blocks still to read: the gap since the last check and what an earlier check left unread. */
  ranges: readonly BlockRange[]
  /** The largest block range the provider answers, or null while none was refused. */
  cap: number | null
  addresses: number
  /** Whether every address has token balances to compare with (the `balances` way needs them). */
  snapshots: boolean
  /** The most calls one request carries (the learnt batch size; 1 where batches are refused). */
  batchSize: number
  /** What `calls` (at most `batchSize`) cost sent at once the cheapest way: one batch, or single calls. */
  requestUnits: (calls: number) => number
}

/** Windows of at most `size` blocks covering `ranges`, newest first (the top of the newest range first). */
export function* newestFirst(ranges: readonly BlockRange[], size: number | null): Generator<BlockRange> {
  const sorted = [...ranges].filter((r) => r.to >= r.from).sort((a, b) => b.to - a.to)
  for (const r of sorted) {
    if (size === null || size <= 0) {
      yield { from: r.from, to: r.to }
      continue
    }
    for (let top = r.to; top >= r.from; top -= size) yield { from: Math.max(r.from, top - size + 1), to: top }
  }
}

/** How many windows `newestFirst` makes, worked out rather than counted (a head may be 2^53). */
export function windowCount(ranges: readonly BlockRange[], size: number | null): number {
  let n = 0
  for (const r of ranges) {
    if (r.to < r.from) continue
    n += size === null || size <= 0 ? 1 : Math.ceil((r.to - r.from + 1) / size)
  }
  return n
}

/** Blocks in `ranges`. */
export const blocksIn = (ranges: readonly BlockRange[]): number =>
  ranges.reduce((n, r) => n + Math.max(0, r.to - r.from + 1), 0)

/** Whole windows per request: as many as the batch size holds (at least one). */
export const windowsPerRequest = (batchSize: number): number => Math.max(1, Math.floor(batchSize / LOG_CALLS_PER_RANGE))

/** What reading `windows` windows costs, `perRequest` windows at a time. */
function logUnits(windows: number, perRequest: number, requestUnits: (calls: number) => number): number {
  if (windows <= 0) return 0
  const full = Math.floor(windows / perRequest)
  const rest = windows % perRequest
  return (
    full * requestUnits(perRequest * LOG_CALLS_PER_RANGE) + (rest > 0 ? requestUnits(rest * LOG_CALLS_PER_RANGE) : 0)
  )
}

export function planGap(input: GapInput): GapPlan {
  const windows = windowCount(input.ranges, input.cap)
  const perRequest = windowsPerRequest(input.batchSize)
  const logs = logUnits(windows, perRequest, input.requestUnits)
  // One data request per address: a GET is one unit in every billing mode.
  const balances = input.snapshots ? input.addresses : Infinity
  if (logs <= balances)
    return { way: 'logs', windows, windowsPerRequest: perRequest, units: logs, otherUnits: balances }
  return { way: 'balances', windows: 0, windowsPerRequest: perRequest, units: balances, otherUnits: logs }
}

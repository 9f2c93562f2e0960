import { cheapestUnits } from '../service/cheapest-calls'
import { fitsOneRange, planFor, UNNAMED_CAP, type GapOptions } from './watch-gap'
import type { BlockRange } from './watch-plan'
import { rpcUnits, type CheckRuntime } from './watch-spend'
import { stateKey, type ProfileWatchState } from './watch-state'
import { keepUnread } from './watch-unread'

/**
 * What a watch check costs, told before it runs: the least it may spend and the most it will
 * (docs/decisions/watch-cost-range.md). The two differ only while the provider's log cap is not
 * known: one filter then asks, and the plan after its answer depends on the cap it names, the
 * smallest planned with being UNNAMED_CAP. The check computes the same bound when it starts and
 * never spends past it (what is left is kept unread for the next check).
 */
export interface WatchTarget {
  network: string
  /** Lowercase. */
  address: string
}

/** In the service's unit, changed addresses' refetches (2 each) not included. */
export interface UnitRange {
  units: number
  /** The most: equal to `units` where the plan does not depend on an answer. */
  max: number
}

/** Groups targets by network, each address once. */
export function byNetwork(targets: WatchTarget[]): Map<string, string[]> {
  const map = new Map<string, Set<string>>()
  for (const t of targets) {
    let set = map.get(t.network)
    if (!set) map.set(t.network, (set = new Set()))
    set.add(t.address.toLowerCase())
  }
  return new Map([...map].map(([n, s]) => [n, [...s]]))
}

/** What a check of `targets` costs now (the sum over networks of `networkCost`). */
export function watchCost(
  runtime: CheckRuntime,
  state: ProfileWatchState,
  targets: WatchTarget[],
  options: GapOptions = {},
): UnitRange {
  const sum = { units: 0, max: 0 }
  for (const [network, addresses] of byNetwork(targets)) {
    const c = networkCost({ runtime, state, network, addresses }, options)
    sum.units += c.units
    sum.max += c.max
  }
  return sum
}

/** The least a check of `targets` costs (watchCost's `units`). */
export const watchUnits = (...args: Parameters<typeof watchCost>): number => watchCost(...args).units

const exact = (units: number): UnitRange => ({ units, max: units })

/** One network's check: the addresses watched on it, the runtime that reads them and the state it updates. */
export interface NetworkCheck {
  runtime: CheckRuntime
  state: ProfileWatchState
  network: string
  addresses: string[]
}

/**
 * One network's check, as watch-check.ts sends it. `joined`: whether the first request carried
 * the three filters, where the check already knows (else: where the blocks since fit one range).
 */
export function networkCost(check: NetworkCheck, options: GapOptions, joined?: boolean): UnitRange {
  const { runtime, state, network, addresses } = check
  const balanceCalls = runtime.balances.callCount(network, addresses.length)
  const net = state.networks[network]
  // Addresses whose token balances the check has not read yet: one data request each.
  const missing = addresses.filter((a) => !state.addresses[stateKey(network, a)]?.tokens).length
  // The first request: the balances, then (after a baseline) the mined head and, where the
  // blocks since fit one range, the three filters: sent as cheapestCalls sends them.
  const first = (calls: number): number => cheapestUnits(runtime.client, network, balanceCalls + calls)
  if (!net) return exact(first(0) + addresses.length)
  const checked = net.checkedBlock
  const unread = net.unread ?? []
  const head = options.headOf?.(network) ?? null
  const cap = options.logCap?.(network) ?? null
  const plan = (ranges: readonly BlockRange[], c: number | null): number =>
    ranges.length === 0
      ? 0
      : planFor({ runtime, network, addresses: addresses.length }, ranges, { cap: c, snapshots: missing === 0 }).units
  // Ranges read by readGap with no cap learnt in the first request.
  const gap = (ranges: readonly BlockRange[]): UnitRange => {
    if (ranges.length === 0) return exact(0)
    if (cap !== null) return exact(plan(ranges, cap))
    const [top, ...rest] = keepUnread(ranges)
    // One filter asks over the newest range: answered, the two others follow as single calls;
    // refused, the plan takes the cap it names (a wide one costs least), else UNNAMED_CAP.
    const answered = 1 + 2 * rpcUnits(runtime, network, 1) + plan(rest, null)
    const named = 1 + plan(keepUnread([top!, ...rest]), null)
    const unnamed = 1 + plan(keepUnread([top!, ...rest]), UNNAMED_CAP)
    return { units: Math.min(answered, named), max: Math.max(answered, unnamed) }
  }
  if (joined ?? (head === null || fitsOneRange(checked, options, network))) {
    const ok = gap(unread)
    // Filters refused (for their range where it is wider than the known cap; for any reason, a
    // result count or a size the provider does not name, while no cap is known): the cap they
    // hint plans the blocks since, with the unread ones, and no filter asks again.
    const since = head === null ? 0 : head - checked
    const limit = cap ?? UNNAMED_CAP
    const mayRefuse = since > limit || (cap === null && since > 0)
    const refused = mayRefuse ? plan([{ from: checked + 1, to: head! }, ...unread], limit) : 0
    const base = first(1 + 3) + missing
    return { units: base + ok.units, max: base + Math.max(ok.max, refused) }
  }
  const g = gap(head !== null && head > checked ? [{ from: checked + 1, to: head }, ...unread] : unread)
  const base = first(1) + missing
  return { units: base + g.units, max: base + g.max }
}

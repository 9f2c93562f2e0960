import { countUnits, SANDBOX_BILLING, unitNoun, type Billing } from './billing'

/**
 * What a piece of bulk work will cost, told before it starts: requests, the
 * share of what is left today, and whether it would cut into the background reserve (the
 * requests kept for the user's own clicks). One rule for every bulk action: "Refresh all",
 * "Load all", exporting all pages and the watch check all call this, and the renderer's one
 * confirm component shows it.
 */
export interface CostEstimate {
  /** In the service's unit (`billing`): requests, calls, or calls plus one per batch. */
  requests: number
  /**
   * The most it may cost, where that depends on answers not known yet (a provider's log cap):
   * absent when the cost is exact. The reserve and "left today" checks count this bound, and
   * the work never spends past it (docs/decisions/watch-cost-range.md).
   */
  requestsMax?: number
  billing: Billing
  leftToday: number
  /** The most it may cost (`requestsMax`, else `requests`) as a share of `leftToday`, 0-100+ (rounded up to one decimal; 100+ when more than is left). */
  percentOfLeft: number
  reserve: number
  /** Running it would leave fewer than `reserve` requests today: the user must confirm. */
  crossesReserve: boolean
  /** More than is left today: it would stop part-way. */
  exceedsLeft: boolean
}

/** `requestsMax`: the most it may cost (see CostEstimate); ignored unless above `requests`. */
export function estimateCost(
  requests: number,
  limiter: { leftToday: number; reserve: number; billing?: Billing },
  requestsMax?: number | null,
): CostEstimate {
  const r = Math.max(0, Math.ceil(requests))
  const most = requestsMax == null ? r : Math.max(r, Math.ceil(requestsMax))
  const left = Math.max(0, limiter.leftToday)
  const percent = left === 0 ? (most === 0 ? 0 : Infinity) : Math.ceil((most / left) * 1000) / 10
  return {
    requests: r,
    ...(most > r ? { requestsMax: most } : {}),
    billing: limiter.billing ?? SANDBOX_BILLING,
    leftToday: left,
    percentOfLeft: percent,
    reserve: limiter.reserve,
    crossesReserve: most > 0 && left - most < limiter.reserve,
    exceedsLeft: most > left,
  }
}

/** "12 requests (1.3 % of the 912 left today)", "5–29 units (up to 2.9 % of …)": the one wording of a cost. */
export function describeCost(cost: CostEstimate): string {
  const share = Number.isFinite(cost.percentOfLeft) ? `${cost.percentOfLeft} %` : 'more than all'
  const most = cost.requestsMax ?? cost.requests
  const ranged = most > cost.requests
  const amount = ranged ? `${cost.requests}–${countUnits(cost.billing, most)}` : countUnits(cost.billing, cost.requests)
  return `${amount} (${ranged ? 'up to ' : ''}${share} of the ${cost.leftToday} left today)`
}

/** "requests", "calls" or "units": the plural of the unit a cost or quota is counted in. */
export function unitsWord(billing: Billing | undefined): string {
  return unitNoun(billing ?? SANDBOX_BILLING, 2)
}

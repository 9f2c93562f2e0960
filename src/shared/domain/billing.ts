/**
 * How a service counts what it is sent: the unit of its rate limit and daily quota. The spec
 * (section 8) speaks of "requests" and says nothing of JSON-RPC batches; providers differ:
 *
 * - 'request': one unit per HTTP request, a batch of any size included (the sandbox's default);
 * - 'call': one unit per call, a batch of N costs N (QuickNode's credits, Alchemy's per call);
 * - 'call-plus-batch': one per call, and one more for a batch itself (Infura: 30 calls cost 31).
 *
 * Plain values (no zod) so the renderer can import them without bundling the schemas.
 */
export const BILLING_MODES = ['request', 'call', 'call-plus-batch'] as const
export type Billing = (typeof BILLING_MODES)[number]

/**
 * A service that is not the sandbox is taken to charge the most: per call, plus one per batch.
 * Over-counting only makes Chainscope stop early; under-counting would run the user's key into
 * the service's own refusal (docs/decisions/billing-units.md).
 */
export const SAFE_BILLING: Billing = 'call-plus-batch'
/** The sandbox counts HTTP requests unless started in another billing mode. */
export const SANDBOX_BILLING: Billing = 'request'

export function isBilling(value: unknown): value is Billing {
  return typeof value === 'string' && (BILLING_MODES as readonly string[]).includes(value)
}

/** One HTTP request: how many calls it carries and whether they travel as a JSON-RPC batch (an array). */
export interface RequestShape {
  calls: number
  batch: boolean
}

/** What one HTTP request costs: a GET of the data API or a single call is 1 in every mode. */
export function requestUnits(billing: Billing, calls: number, batch = calls > 1): number {
  const n = Math.max(1, Math.ceil(calls))
  if (billing === 'request') return 1
  if (!batch) return n
  return billing === 'call-plus-batch' ? n + 1 : n
}

/** What a list of HTTP requests costs, each given as its call count (2 or more = a batch) or its shape. */
export function unitsFor(billing: Billing, requests: ReadonlyArray<number | RequestShape>): number {
  let units = 0
  for (const r of requests) {
    units += typeof r === 'number' ? requestUnits(billing, r) : requestUnits(billing, r.calls, r.batch)
  }
  return units
}

/**
 * What `calls` calls cost when sent in batches of at most `batchSize` (1 = one call per request):
 * the one sum a preview, a budget and the limiter agree on.
 */
export function unitsForCalls(billing: Billing, calls: number, batchSize: number): number {
  if (calls <= 0) return 0
  const size = Math.max(1, Math.floor(batchSize))
  const full = Math.floor(calls / size)
  const rest = calls % size
  return full * requestUnits(billing, size) + (rest > 0 ? requestUnits(billing, rest) : 0)
}

/** The word for `n` of a mode's unit: "requests", "calls" or "units" ("1 call"). */
export function unitNoun(billing: Billing, n: number): string {
  const word = billing === 'request' ? 'request' : billing === 'call' ? 'call' : 'unit'
  return n === 1 ? word : `${word}s`
}

/** "104 units": a count in the profile's unit. */
export function countUnits(billing: Billing, n: number): string {
  return `${n} ${unitNoun(billing, n)}`
}

/** One line for the profile form: what each mode means. */
export const BILLING_HELP: Record<Billing, string> = {
  request: 'Per HTTP request: a batch of calls costs one.',
  call: 'Per call: a batch of N calls costs N.',
  'call-plus-batch': 'Per call, plus one per batch: a batch of N calls costs N + 1 (the safest guess).',
}

/** The limits of cases, plain values so the renderer can use them without bundling zod. */
export const CASE_LIMITS = {
  cases: 200,
  name: 80,
  addresses: 500,
  notes: 20_000,
  expanded: 500,
  hopLimit: 6,
  /** Path questions a case keeps (the oldest go first). */
  paths: 100,
  /** Transactions kept per hop of a path answer. */
  pathHashes: 50,
} as const

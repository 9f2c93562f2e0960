/** The limits of cases, plain values so the renderer can use them without bundling zod. */
export const CASE_LIMITS = {
  cases: 200,
  name: 80,
  addresses: 500,
  notes: 20_000,
  expanded: 500,
  hopLimit: 6,
} as const

import { z } from 'zod'
import {
  apiKeyProblem,
  coinDecimalsProblem,
  coinSymbolProblem,
  NETWORK_NAME_PATTERN,
  NETWORK_NAME_RULE,
  PROFILE_LIMITS,
  serviceUrlProblem,
} from './profile-rules'
import { BILLING_MODES, type Billing } from './billing'

/** Network names are data, never constants: each profile names its two networks. */
export const networkName = z.string().regex(NETWORK_NAME_PATTERN, NETWORK_NAME_RULE)

/** Reports the rule's own words (`serviceUrlProblem`) as the issue. */
const httpUrl = z.string().superRefine((u, ctx) => {
  const problem = serviceUrlProblem(u)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})

/** An API key as pasted; the same words as the setup form (`apiKeyProblem`). */
export const apiKeySchema = z
  .string()
  .trim()
  .superRefine((k, ctx) => {
    const problem = apiKeyProblem(k)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

/** A network's native coin as the profile names it; absent where nothing is known ("coin", 18 decimals). */
export const networkCoinSchema = z.object({
  symbol: z
    .string()
    .trim()
    .superRefine((s, ctx) => {
      const problem = coinSymbolProblem(s)
      if (problem) ctx.addIssue({ code: 'custom', message: problem })
    }),
  decimals: z.number().superRefine((d, ctx) => {
    const problem = coinDecimalsProblem(d)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  }),
})
export type NetworkCoin = z.infer<typeof networkCoinSchema>

export const networkConfigSchema = z.object({
  name: networkName,
  label: z.string().trim().min(1).max(PROFILE_LIMITS.networkLabel),
  // Optional: profiles saved before the field existed load unchanged (docs/decisions/coin-as-asset.md).
  coin: networkCoinSchema.optional(),
})
export type NetworkConfig = z.infer<typeof networkConfigSchema>

/**
 * What one bucket (rate, burst) and one daily quota cover; spec 8 does not say. 'key' (the
 * default, the strictest reading): one for the whole key, across both networks and both
 * endpoints. 'network': one per network. 'endpoint': one for the data API and one for the RPC
 * endpoint. 'network-endpoint': one per network and endpoint. A wider split can only be right
 * if the service really counts that way; the default can only under-use it.
 */
const limitScopeSchema = z.enum(['key', 'network', 'endpoint', 'network-endpoint'])
export type LimitScope = z.infer<typeof limitScopeSchema>

export const limitsSchema = z.object({
  ratePerSecond: z.number().positive().max(10_000),
  burst: z.number().int().positive().max(10_000),
  quotaPerDay: z.number().int().positive().max(100_000_000),
  // Default 'key': settings files written before the option existed load unchanged.
  scope: limitScopeSchema.default('key'),
})
export type Limits = z.infer<typeof limitsSchema>

/** How the service counts (billing.ts); a profile saved before the field existed reads as SAFE_BILLING. */
export const billingSchema = z.enum(BILLING_MODES)

/** Spec section 8. Assumed per key, across networks and endpoints, until configured otherwise. */
export const SPEC_LIMITS: Limits = { ratePerSecond: 50, burst: 5, quotaPerDay: 1000, scope: 'key' }

export const profileInputSchema = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/)
    .optional(),
  name: z.string().trim().min(1, 'a profile needs a name').max(PROFILE_LIMITS.name),
  baseUrl: httpUrl,
  rpcUrl: httpUrl,
  networks: z.tuple([networkConfigSchema, networkConfigSchema]).refine((n) => n[0].name !== n[1].name, {
    message: 'the two networks need different names',
  }),
  limits: limitsSchema.optional(),
  billing: billingSchema.optional(),
})
export type ProfileInput = z.infer<typeof profileInputSchema>

export interface Profile {
  id: string
  name: string
  kind: 'sandbox' | 'service'
  /** Empty for the sandbox profile until its sandbox has started. */
  baseUrl: string
  rpcUrl: string
  networks: NetworkConfig[]
  limits: Limits
  /** The unit the service's limits and quota count in: the sandbox's is what its mode says. */
  billing: Billing
}

export const SANDBOX_PROFILE_ID = 'sandbox'

/**
 * Whether the API key may be sent to `url`: `https`, or plain `http` to this machine only
 * (the sandbox runs on http://127.0.0.1). Anything else would hand the key to the network.
 */
export function keySafeUrl(url: string): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (parsed.protocol === 'https:') return true
  return parsed.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)
}

/** The origin a key is bound to (scheme, host, port); '' when the URL is not one. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return ''
  }
}

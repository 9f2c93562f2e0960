import { randomBytes } from 'node:crypto'
import { z } from 'zod'
import { billingSchema, limitsSchema, networkConfigSchema, profileInputSchema } from '@shared/domain/profile'
import { SAFE_BILLING } from '@shared/domain/billing'

/** The shape of `<dataDir>/settings.json` and the small rules of its records (settings-store.ts). */
/**
 * A profile saved before billing was a field loads as SAFE_BILLING (per call, plus one per
 * batch): over-counting stops early, under-counting runs the key into the service's refusal.
 */
const storedProfile = profileInputSchema.extend({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/),
  limits: limitsSchema,
  billing: billingSchema.default(SAFE_BILLING),
  // Names the profile's keychain entry (keyRef); absent in files written before it existed.
  keyId: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .optional(),
  // The key may still be in the keychain entry an earlier version named by the profile id alone.
  legacyKey: z.literal(true).optional(),
})
export type StoredProfile = z.infer<typeof storedProfile>
export const fileSchema = z.object({
  version: z.literal(1),
  activeProfileId: z.string().nullable(),
  profiles: z.array(storedProfile),
  sandbox: z.object({ limits: limitsSchema.nullable(), networks: z.array(networkConfigSchema).max(8) }),
  balanceSpelling: z.record(z.string(), z.enum(['balance', 'balances'])),
  settings: z.object({ allowRemoteIcons: z.boolean() }),
  // The "Work offline" switch (docs/decisions/work-offline.md); absent in files written before it.
  workOffline: z.boolean().default(false),
})
export type SettingsFile = z.infer<typeof fileSchema>

export const empty = (): SettingsFile => ({
  version: 1,
  // No profile is active on a first run: the renderer's welcome offers the sandbox or a service.
  activeProfileId: null,
  profiles: [],
  sandbox: { limits: null, networks: [] },
  balanceSpelling: {},
  settings: { allowRemoteIcons: false },
  workOffline: false,
})

export const newKeyId = (): string => randomBytes(16).toString('hex')

/** A stored profile without what only the store uses (its keychain entry's name). */
export function publicProfile(p: StoredProfile): Omit<StoredProfile, 'keyId' | 'legacyKey'> {
  const { keyId: _keyId, legacyKey: _legacy, ...rest } = p
  return rest
}

/** "alpha" → "Alpha": the sandbox names its networks; labels are derived, never hard-coded. */
export function labelFor(network: string): string {
  return network.charAt(0).toUpperCase() + network.slice(1)
}

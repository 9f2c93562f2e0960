import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { Watchlist } from '@shared/bridge/contract'
import { ADDRESS_PATTERN, isAddressText, normaliseAddress } from '@shared/domain/address'
import { WATCH_LIMITS } from '@shared/domain/watch-limits'
import { watchAlsoNetworks, watchLabel, watchListName, watchNote, watchTags } from '@shared/domain/watch-schemas'
import { networkName } from '@shared/domain/profile'

/**
 * The watchlists file, schema version 2 (current):
 *   { version: 2, lists: [{ id, name, entries: [{ id, address, network, label, note, tags, addedAt }] }] }
 * Addresses are stored lowercase (normalised); the renderer shows them checksummed.
 *
 * Version 1 (the first preview) had no notes, tags or ids and a different field name:
 *   { version: 1, lists: [{ name, items: [{ address, network, label?, added? }] }] }
 * `migrate` lifts it to version 2; the old file stays as the backup after the first save.
 */
export const WATCHLIST_VERSION = 2

const lowerAddress = z
  .string()
  .refine((a) => isAddressText(a) && normaliseAddress(a) === a, 'expected a lowercase 0x address')
const isoTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO time')

const watchEntrySchema = z.object({
  id: z.string().min(1).max(80),
  address: lowerAddress,
  network: networkName,
  label: watchLabel,
  note: watchNote,
  tags: watchTags,
  addedAt: isoTime,
  // The same address watched on other networks too. Optional, so version-2 files
  // written before it load unchanged (no version bump: older builds simply drop the field).
  alsoNetworks: watchAlsoNetworks.optional(),
})

const watchlistSchema = z.object({
  id: z.string().min(1).max(80),
  name: watchListName,
  entries: z.array(watchEntrySchema).max(WATCH_LIMITS.entries),
})

const v2 = z.object({ version: z.literal(2), lists: z.array(watchlistSchema).max(WATCH_LIMITS.lists) })
const v1 = z.object({
  version: z.literal(1),
  lists: z.array(
    z.object({
      name: watchListName,
      items: z.array(
        z.object({
          address: z.string().regex(ADDRESS_PATTERN),
          network: networkName,
          label: watchLabel.optional(),
          added: isoTime.optional(),
        }),
      ),
    }),
  ),
})

export interface WatchlistFile {
  version: 2
  lists: Watchlist[]
}

export function migrateWatchlists(raw: { version: number } & Record<string, unknown>): WatchlistFile {
  if (raw.version === 1) {
    const old = v1.parse(raw)
    const now = new Date().toISOString()
    return {
      version: 2,
      lists: old.lists.map((l) => ({
        id: randomUUID(),
        name: l.name,
        entries: l.items.map((i) => ({
          id: randomUUID(),
          address: normaliseAddress(i.address),
          network: i.network,
          label: i.label ?? '',
          note: '',
          tags: [],
          addedAt: i.added ?? now,
        })),
      })),
    }
  }
  const current = v2.parse(raw)
  for (const list of current.lists) {
    const seen = new Set<string>()
    for (const e of list.entries) {
      const k = `${e.network}|${e.address}`
      if (seen.has(k)) throw new Error(`list "${list.name}" holds ${e.address} on ${e.network} twice`)
      seen.add(k)
    }
  }
  return current
}

import { z } from 'zod'
import { addressInput as address } from './address-input'
import { networkName } from '../domain/profile'
import { watchLabel, watchNote } from '../domain/watch-schemas'

/**
 * What the user saw before editing (null: no label yet). Main saves only while the kept label
 * still equals it, so an edit never overwrites a change made meanwhile (an import, another window).
 */
const seen = z.object({ label: watchLabel, note: watchNote }).strict().nullable()

/** One address label at a time, from the address page and Settings. */
export const labelEditCalls = {
  'labels.set': z
    .object({ address, network: networkName, label: z.string().trim().pipe(watchLabel), note: watchNote, seen })
    .strict(),
  'labels.remove': z.object({ address, network: networkName, seen }).strict(),
} as const

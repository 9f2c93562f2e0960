import { z } from 'zod'
import { networkName } from './profile'
import { WATCH_LIMITS, WATCH_MESSAGES } from './watch-limits'

/** Zod forms of `WATCH_LIMITS`, shared by the bridge's input schemas and the saved file's schema. */
export const watchLabel = z.string().max(WATCH_LIMITS.label, WATCH_MESSAGES.label)
export const watchNote = z.string().max(WATCH_LIMITS.note, WATCH_MESSAGES.note)
export const watchTags = z
  .array(z.string().min(1, WATCH_MESSAGES.tags).max(WATCH_LIMITS.tag, WATCH_MESSAGES.tags))
  .max(WATCH_LIMITS.tags, WATCH_MESSAGES.tags)
export const watchListName = z
  .string()
  .min(1, WATCH_MESSAGES.listName)
  .max(WATCH_LIMITS.listName, WATCH_MESSAGES.listName)
export const watchAlsoNetworks = z.array(networkName).max(WATCH_LIMITS.alsoNetworks, WATCH_MESSAGES.alsoNetworks)

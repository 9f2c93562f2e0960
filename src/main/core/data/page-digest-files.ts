import { basename, dirname, join } from 'node:path'
import { z } from 'zod'
import type { Transaction } from '@shared/domain/service-schemas'

/**
 * What a reader keeps of a transaction page instead of the page: the store makes it when it
 * writes the page (the items are in memory then) and keeps it beside the page, so a view that
 * needs a little of every page (the approvals an address granted) reads a few kilobytes a page
 * instead of decompressing and checking fifty transactions. The store does not know what is
 * in it; its maker does (the approvals' page digest).
 */
export interface PageDigester {
  /** The JSON value kept of a page of `address` (lowercase). */
  of(items: readonly Transaction[], address: string): unknown
}

/**
 * Digests live in a `digests` folder beside their pages, one file each under the page's name.
 * That keeps them out of the catalogue (which lists an address's own files) and of the
 * per-address page cap, while the byte budget counts them and evicts them in the order they
 * were written: right after their page.
 */
const FOLDER = 'digests'

/** The digest file of a page, both given as the store's plain (uncompressed) names. */
export function digestPathOf(pagePlain: string): string {
  return join(dirname(pagePlain), FOLDER, basename(pagePlain))
}

/** A digest file: the version of the page it was made from (its stamp and size), and the digest. */
export const digestFile = z.object({
  version: z.literal(1),
  page: z.object({ stamp: z.number(), size: z.number().int().min(0) }),
  data: z.unknown(),
})

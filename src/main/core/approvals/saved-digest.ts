import { z } from 'zod'
import { lowerAddressSchema } from '@shared/domain/address'
import type { PageDigester } from '../data/page-digest-files'
import type { ApprovalChange, ApprovalEvent } from './approval-events'
import type { PartyFacts } from './approval-parties'
import { digestOf, type PageDigest } from './page-digests'
import { savedUint, savedVia, uintText, uintValue } from './saved-approval-parts'

/**
 * The longest text a digest keeps: well above what a service sends. One bound for the writer
 * (`toSaved` cuts every text to it) and the reader (the schema), so no digest is written that
 * its reader refuses (issue 43, finding 4): a longer name is kept cut, not refused on each reading.
 */
export const DIGEST_TEXT_MAX = 100_000
const text = z.string().max(DIGEST_TEXT_MAX)
const time = text.nullable()

const changeSchema = z.discriminatedUnion('op', [
  z.object({ op: z.enum(['set', 'increase', 'decrease']), amount: savedUint }),
  z.object({ op: z.literal('operator'), on: z.boolean() }),
  z.object({ op: z.literal('nft'), tokenId: savedUint }),
])
const eventSchema = z.object({
  token: lowerAddressSchema,
  spender: lowerAddressSchema,
  change: changeSchema,
  source: z.enum(['call', 'log']),
  via: savedVia,
  tx: text,
  block: z.number().int().min(0).nullable(),
  index: z.number().int().min(0),
  timestamp: time,
})
const tags = z.array(text).optional()
const partySchema = z.object({
  hash: text,
  name: text.nullable().optional(),
  public_tags: tags,
  private_tags: tags,
  is_contract: z.boolean().nullable().optional(),
  is_verified: z.boolean().nullable().optional(),
})
const tokenSchema = z.object({
  address: text,
  type: text,
  decimals: text.nullable(),
  symbol: text.nullable(),
  name: text.nullable(),
  exchange_rate: text.nullable().optional(),
})
/** One cached page's digest as the snapshot store keeps it beside the page. */
export const savedDigestSchema = z.object({
  transactions: z.number().int().min(0),
  events: z.array(eventSchema),
  /** Hash, time, hash, time…: one check over the list, not one per pair (most of the file; cheaper to load). */
  times: z.custom<(string | null)[]>(
    (v) =>
      Array.isArray(v) &&
      v.length % 2 === 0 &&
      v.every((x, i) => (typeof x === 'string' && x.length < 200) || (i % 2 === 1 && x === null)),
    'expected transaction hashes, each followed by its time',
  ),
  /** The parties with no name, no tags and neither mark (most of them), by hash alone. */
  plain: z.custom<string[]>(
    (v) => Array.isArray(v) && v.every((x) => typeof x === 'string' && x.length < 200),
    'expected addresses',
  ),
  parties: z.array(partySchema),
  tokens: z.array(tokenSchema),
})
type SavedPage = z.infer<typeof savedDigestSchema>

const savedChange = (c: ApprovalChange): SavedPage['events'][number]['change'] =>
  c.op === 'operator'
    ? { op: c.op, on: c.on }
    : c.op === 'nft'
      ? { op: c.op, tokenId: uintText(c.tokenId) }
      : { op: c.op, amount: uintText(c.amount) }

const liveChange = (c: SavedPage['events'][number]['change']): ApprovalChange =>
  c.op === 'operator'
    ? { op: c.op, on: c.on }
    : c.op === 'nft'
      ? { op: c.op, tokenId: uintValue(c.tokenId) }
      : { op: c.op, amount: uintValue(c.amount) }

const isPlain = (p: PartyFacts): boolean =>
  Object.keys(p).length === 6 &&
  p.name === null &&
  p.public_tags?.length === 0 &&
  p.private_tags?.length === 0 &&
  p.is_contract === false &&
  p.is_verified === false
const plainParty = (hash: string): PartyFacts => ({
  hash,
  name: null,
  public_tags: [],
  private_tags: [],
  is_contract: false,
  is_verified: false,
})

function pairs(flat: readonly (string | null)[]): [hash: string, timestamp: string | null][] {
  const out: [string, string | null][] = []
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i]!, flat[i + 1] ?? null])
  return out
}

const cut = <T extends string | null | undefined>(s: T): T =>
  (typeof s === 'string' && s.length > DIGEST_TEXT_MAX ? s.slice(0, DIGEST_TEXT_MAX) : s) as T

/** A party or token with each of its texts (and tags) cut to `DIGEST_TEXT_MAX`. */
function cutTexts<T extends object>(facts: T): T {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(facts))
    out[k] = Array.isArray(v) ? v.map((x) => cut(x as string)) : cut(v as string)
  return out as T
}

/**
 * The digest as it is saved, checked by the schema its reader uses: one the reader would refuse
 * throws here (the snapshot store then writes none), never reaches the disk.
 */
export function toSaved(d: PageDigest): SavedPage {
  return savedDigestSchema.parse({
    transactions: d.transactions,
    events: d.events.map((e) => ({ ...e, change: savedChange(e.change) })),
    times: d.times.flat(),
    plain: d.parties.filter(isPlain).map((p) => p.hash),
    parties: d.parties.filter((p) => !isPlain(p)).map(cutTexts),
    tokens: d.tokens.map(cutTexts),
  })
}

export function fromSaved(p: SavedPage): PageDigest {
  return {
    transactions: p.transactions,
    events: p.events.map((e): ApprovalEvent => ({ ...e, change: liveChange(e.change) })),
    times: pairs(p.times),
    // A page names each party once, so their order in it changes nothing (PartyBook merges by page).
    parties: [...p.parties, ...p.plain.map(plainParty)],
    tokens: p.tokens,
  }
}

/**
 * The approvals' digest of each page, made by the snapshot store as it writes the page, so
 * even the first opening of an address's Approvals tab reads digests, not pages.
 */
export const approvalsDigester: PageDigester = { of: (items, address) => toSaved(digestOf(items, address)) }

import { rmSync } from 'node:fs'
import { basename, join } from 'node:path'
import { z } from 'zod'
import { errorMessage } from '@shared/guards'
import type { SnapshotEntry } from '../data/snapshot-store'
import type { Logger } from '../util/logger'
import { VersionedFile } from '../util/versioned-file'
import type { ApprovalChange, ApprovalEvent } from './approval-events'
import type { PartyFacts } from './approval-parties'
import type { DigestShelf, PageDigest } from './page-digests'

const VERSION = 1

const lowerAddress = z.string().regex(/^0x[0-9a-f]{40}$/)
// Bounds well above what a service sends: a file that would fail them is not saved (its pages are read again).
const uint = z.string().regex(/^\d{1,200}$/)
const text = z.string().max(100_000)
const time = text.nullable()

const changeSchema = z.discriminatedUnion('op', [
  z.object({ op: z.enum(['set', 'increase', 'decrease']), amount: uint }),
  z.object({ op: z.literal('operator'), on: z.boolean() }),
  z.object({ op: z.literal('nft'), tokenId: uint }),
])
const eventSchema = z.object({
  token: lowerAddress,
  spender: lowerAddress,
  change: changeSchema,
  source: z.enum(['call', 'log']),
  via: z.enum(['approve', 'increaseAllowance', 'decreaseAllowance', 'permit', 'setApprovalForAll', 'log']),
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
/** One cached page's digest, with the version of the page file it was made from (stamp and size). */
const pageSchema = z.object({
  stamp: z.number(),
  size: z.number().int().min(0),
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
type SavedPage = z.infer<typeof pageSchema>

/** Pages by their file's name in the address's snapshot folder. */
const fileSchema = z.object({ version: z.literal(VERSION), pages: z.record(z.string(), pageSchema) })
type DigestFile = z.infer<typeof fileSchema>

const savedChange = (c: ApprovalChange): SavedPage['events'][number]['change'] =>
  c.op === 'operator'
    ? { op: c.op, on: c.on }
    : c.op === 'nft'
      ? { op: c.op, tokenId: c.tokenId.toString() }
      : { op: c.op, amount: c.amount.toString() }

const liveChange = (c: SavedPage['events'][number]['change']): ApprovalChange =>
  c.op === 'operator'
    ? { op: c.op, on: c.on }
    : c.op === 'nft'
      ? { op: c.op, tokenId: BigInt(c.tokenId) }
      : { op: c.op, amount: BigInt(c.amount) }

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

function toSaved(entry: SnapshotEntry, d: PageDigest): SavedPage {
  return {
    stamp: entry.stamp,
    size: entry.size,
    transactions: d.transactions,
    events: d.events.map((e) => ({ ...e, change: savedChange(e.change) })),
    times: d.times.flat(),
    plain: d.parties.filter(isPlain).map((p) => p.hash),
    parties: d.parties.filter((p) => !isPlain(p)),
    tokens: d.tokens,
  }
}

function fromSaved(p: SavedPage): PageDigest {
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
 * Per profile, network and owner, the digests of its cached pages (page-digests.ts), so the
 * first opening of the Approvals tab after a start reads one small file instead of every page
 * of the owner's transactions. A digest is trusted only for the version of the page file it
 * was made from: a page rewritten since is digested again, one gone from the cache is dropped.
 * It is a cache of the pages: a damaged file is set aside (versioned-file.ts), said in the log
 * and rebuilt from the pages, which are never touched here.
 */
export class DigestFiles {
  readonly #dir: string
  readonly #log: Logger | undefined

  constructor(dir: string, log?: Logger) {
    this.#dir = dir
    this.#log = log
  }

  removeProfile(profileId: string): void {
    try {
      rmSync(join(this.#dir, profileId), { recursive: true, force: true })
    } catch (error) {
      this.#log?.warn(`approvals digests of a removed profile not removed: ${errorMessage(error)}`)
    }
  }

  /** The shelf of one owner for one view: it reads the file only if a page is missing from memory. */
  shelf(profileId: string, network: string, owner: string): DigestShelf & { settle(): void } {
    const file = new VersionedFile<DigestFile>({
      path: join(this.#dir, profileId, network, `${owner.toLowerCase()}.json`),
      version: VERSION,
      label: 'approvals digest',
      compact: true,
      migrate: (raw) => fileSchema.parse(raw),
      empty: () => ({ version: VERSION, pages: {} }),
    })
    let saved: DigestFile['pages'] | null = null
    let readOnly = false
    const used = new Map<string, { entry: SnapshotEntry; digest: PageDigest }>()
    const log = this.#log
    return {
      find(entry) {
        if (saved === null) {
          const loaded = file.load()
          saved = loaded.data.pages
          readOnly = loaded.readOnly
          if (loaded.notice) log?.warn(`${loaded.notice} (A cache of the pages: a page it lacks is digested again.)`)
        }
        const page = saved[basename(entry.path)]
        return page && page.stamp === entry.stamp && page.size === entry.size ? fromSaved(page) : null
      },
      use(entry, digest) {
        used.set(basename(entry.path), { entry, digest })
      },
      // Saved only when the file was read (a page was missing from memory) and it differs from
      // what this view used: a page rewritten, added or gone.
      settle() {
        if (saved === null || readOnly) return
        const pages: DigestFile['pages'] = {}
        let changed = Object.keys(saved).length !== used.size
        for (const [name, { entry, digest }] of used) {
          const old = saved[name]
          changed ||= !old || old.stamp !== entry.stamp || old.size !== entry.size
          pages[name] = old && old.stamp === entry.stamp && old.size === entry.size ? old : toSaved(entry, digest)
        }
        if (!changed) return
        try {
          file.save({ version: VERSION, pages })
          saved = pages
        } catch (error) {
          // The view has its answer; the next opening digests the pages again.
          log?.warn(`approvals digest not saved: ${errorMessage(error)}`)
        }
      },
    }
  }
}

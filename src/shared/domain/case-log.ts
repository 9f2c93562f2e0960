import { sha256, stringToBytes } from 'viem'
import { z } from 'zod'

/**
 * A case's activity log: what was fetched (when, from which profile, at what cost) and what the
 * analyst added or changed. Append-only, each entry chained to the one before by SHA-256 over a
 * canonical encoding, so an edited, removed or reordered entry is found on load and named
 * (docs/decisions/case-activity-log.md).
 */
export const LOG_LIMITS = { entries: 5000, what: 500, profile: 80, cost: 80 } as const

/** The link of the first entry. */
export const GENESIS = '0'.repeat(64)

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits')
const iso = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO time')

export const logEntrySchema = z
  .object({
    seq: z.number().int().min(1),
    at: iso,
    kind: z.enum(['fetch', 'change']),
    what: z.string().min(1).max(LOG_LIMITS.what),
    /** The profile the data came from (a fetch), never its key; null for the analyst's changes. */
    profile: z.string().max(LOG_LIMITS.profile).nullable(),
    /** In the profile's billing unit ("1 request"); null when nothing was billed. */
    cost: z.string().max(LOG_LIMITS.cost).nullable(),
    prev: hex64,
    hash: hex64,
  })
  .strict()

export type LogEntry = z.infer<typeof logEntrySchema>
export type LogDraft = Pick<LogEntry, 'at' | 'kind' | 'what' | 'profile' | 'cost'>

/**
 * The bytes an entry's hash covers: a JSON array in a fixed order (no key order to agree on,
 * JSON's own escaping), UTF-8. `hash` is over everything else, `prev` included.
 */
export function canonicalEntry(e: Omit<LogEntry, 'hash'>): string {
  return JSON.stringify(['chainscope-log-1', e.seq, e.at, e.kind, e.what, e.profile, e.cost, e.prev])
}

export function entryHash(e: Omit<LogEntry, 'hash'>): string {
  return sha256(stringToBytes(canonicalEntry(e))).slice(2)
}

/** The log with one more entry, chained to its last one. */
export function appendEntry(log: readonly LogEntry[], draft: LogDraft): LogEntry[] {
  const last = log.at(-1)
  const body = {
    seq: (last?.seq ?? 0) + 1,
    at: draft.at,
    kind: draft.kind,
    what: draft.what.slice(0, LOG_LIMITS.what),
    profile: draft.profile === null ? null : draft.profile.slice(0, LOG_LIMITS.profile),
    cost: draft.cost === null ? null : draft.cost.slice(0, LOG_LIMITS.cost),
    prev: last?.hash ?? GENESIS,
  }
  return [...log, { ...body, hash: entryHash(body) }]
}

export interface LogProblem {
  /** The entry's number (`seq`) the problem is found at. */
  entry: number
  message: string
}

const quote = (e: LogEntry): string => `“${e.what.slice(0, 60)}${e.what.length > 60 ? '…' : ''}”`

/**
 * The first place the chain is broken, named by entry, or null when every entry is as written.
 * An edited entry no longer matches its hash; a removed one leaves a gap in the numbers and a
 * link that points at nothing; a moved one is out of order.
 */
export function verifyLog(log: readonly LogEntry[]): LogProblem | null {
  let prev = GENESIS
  for (let i = 0; i < log.length; i++) {
    const e = log[i]!
    const expected = i + 1
    const { hash, ...body } = e
    if (entryHash(body) !== hash)
      return {
        entry: e.seq,
        message: `Entry ${e.seq} of the activity log (${quote(e)}) was changed after it was written: it no longer matches its hash.`,
      }
    if (e.seq !== expected || e.prev !== prev) {
      const movedHere = e.seq > expected && log.slice(i + 1).some((x) => x.seq === expected)
      if (e.seq > expected && !movedHere)
        return {
          entry: expected,
          message: `Entry ${expected}${e.seq - expected > 1 ? ` to ${e.seq - 1}` : ''} of the activity log ${e.seq - expected > 1 ? 'were' : 'was'} removed (entry ${e.seq} follows entry ${expected - 1}).`,
        }
      return {
        entry: e.seq,
        message: `Entry ${e.seq} of the activity log (${quote(e)}) is out of order: it does not follow the entry before it.`,
      }
    }
    prev = hash
  }
  return null
}

/** The hash of the log's last entry: what a report states so a later cut is found. */
export const logHead = (log: readonly LogEntry[]): string => log.at(-1)?.hash ?? GENESIS

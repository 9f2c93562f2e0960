import { readFileSync, renameSync } from 'node:fs'
import { z } from 'zod'
import { writeFileAtomicSync } from '../util/atomic-file'
import { DiskReports } from '../util/disk-error'

/**
 * The daily request count per profile, on disk so a restart or a crash does not reset it.
 *
 * Counting is conservative: the file always holds at least the true count. Rather than an
 * fsync per request (50 a second at full rate), the limiter reserves counts ahead in small
 * steps (`QuotaLedger.reserveStep`): after a crash the restored count may be up to one step
 * too high, never too low, so the client can only under-use the quota, never exceed it.
 *
 * `keyTag` is a 24-bit fingerprint of the API key: when the key changes (a new key, or a new
 * sandbox run with a fresh key) the service starts a fresh count, and so do we. 24 bits are
 * enough to notice a change and far too few to help anyone guess the key.
 */
const recordSchema = z.object({
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  used: z.number().int().nonnegative(),
  keyTag: z.string().max(16),
})
const fileSchema = z.object({ version: z.literal(1), profiles: z.record(z.string(), recordSchema) })
export type QuotaRecord = z.infer<typeof recordSchema>
const WHAT = 'daily request count'

export interface QuotaLedger {
  load(profileId: string): QuotaRecord | null
  save(profileId: string, record: QuotaRecord): void
}

export class QuotaFile implements QuotaLedger {
  readonly #path: string
  readonly #disk: DiskReports
  #records: Record<string, QuotaRecord> | null = null

  /** `disk`: where a failed write is told (the app's notices); by default nowhere. */
  constructor(path: string, disk: DiskReports = new DiskReports(() => undefined)) {
    this.#path = path
    this.#disk = disk
  }

  /**
   * Writes run inside the limiter (its timers, a request's permit): a disk that refuses one
   * must not end the process or fail the request. The count goes on in memory and the user
   * is told once; the next write that succeeds catches the file up.
   */
  #write(all: Record<string, QuotaRecord>): void {
    try {
      const text = JSON.stringify({ version: 1, profiles: all })
      // Read back through the load's schema first: a count the next start would drop is not written.
      const check = fileSchema.safeParse(JSON.parse(text))
      if (!check.success) throw new Error(`the count would not load again (${check.error.issues[0]?.message ?? ''})`)
      writeFileAtomicSync(this.#path, text)
      this.#disk.saved(WHAT)
    } catch (error) {
      this.#disk.failed(WHAT, error, 'a restart would count on from the last count saved.')
    }
  }

  #all(): Record<string, QuotaRecord> {
    if (this.#records) return this.#records
    let text: string | null = null
    try {
      text = readFileSync(this.#path, 'utf8')
    } catch {
      // Missing or unreadable: start from zero.
    }
    const parsed = text === null ? null : fileSchema.safeParse(parseJson(text))
    this.#records = parsed?.success ? parsed.data.profiles : {}
    // A corrupt count file cannot be repaired (the service's own 429 "quota" answer then
    // corrects the count); it is kept aside rather than overwritten by the next count.
    if (parsed && !parsed.success) {
      try {
        renameSync(this.#path, `${this.#path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`)
      } catch {
        // Left where it is; the next write replaces it.
      }
    }
    return this.#records
  }

  load(profileId: string): QuotaRecord | null {
    // Own keys only: a profile id such as "constructor" must not find Object's.
    const all = this.#all()
    return Object.hasOwn(all, profileId) ? all[profileId]! : null
  }

  save(profileId: string, record: QuotaRecord): void {
    const all = this.#all()
    all[profileId] = { ...record }
    this.#write(all)
  }

  /** Forgets the profile's count and those of its narrower buckets (`<id>|…`, limiter-pool.ts). */
  remove(profileId: string): void {
    const all = this.#all()
    const ids = Object.keys(all).filter((id) => id === profileId || id.startsWith(`${profileId}|`))
    if (ids.length === 0) return
    for (const id of ids) delete all[id]
    this.#write(all)
  }
}

/** In-memory ledger for tests and benchmarks that need no disk. */
export class MemoryQuotaLedger implements QuotaLedger {
  readonly records = new Map<string, QuotaRecord>()
  writes = 0
  load(profileId: string): QuotaRecord | null {
    const r = this.records.get(profileId)
    return r ? { ...r } : null
  }
  save(profileId: string, record: QuotaRecord): void {
    this.writes += 1
    this.records.set(profileId, { ...record })
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

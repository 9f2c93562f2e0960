import { readFileSync, renameSync } from 'node:fs'
import { z } from 'zod'
import { writeFileAtomic, type WriteFs } from '../util/atomic-file'
import { DiskReports } from '../util/disk-error'
import { SAVE_DEADLINE_MS } from '../util/versioned-file'

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
  /**
   * Keeps the record. Nothing (void) when it is kept at once; a promise when it is written in
   * the background, settled (never rejected) once the write is decided: landed, or refused or
   * given up at its deadline and told (daily-quota.ts waits for it before sending more).
   */
  save(profileId: string, record: QuotaRecord): void | Promise<void>
}

export interface QuotaFileOptions {
  /** Where a failed write is told (the app's notices); by default nowhere. */
  disk?: DiskReports
  /** A write not decided by then is given up (never renamed into place) and told. Default: SAVE_DEADLINE_MS. */
  deadlineMs?: number
  /** The file calls (a test's hanging disk); default node:fs/promises. */
  fs?: WriteFs
}

export class QuotaFile implements QuotaLedger {
  readonly #path: string
  readonly #disk: DiskReports
  readonly #deadlineMs: number
  readonly #fs: WriteFs | undefined
  #records: Record<string, QuotaRecord> | null = null
  /** The write not started yet (it writes the records as they are when it starts), if any. */
  #queued: Promise<void> | null = null
  /** The last write asked for: writes go one after another. */
  #tail: Promise<void> = Promise.resolve()

  constructor(path: string, options: QuotaFileOptions = {}) {
    this.#path = path
    this.#disk = options.disk ?? new DiskReports(() => undefined)
    this.#deadlineMs = options.deadlineMs ?? SAVE_DEADLINE_MS
    this.#fs = options.fs
  }

  /** Every write asked for so far is decided (a clean close waits for this). */
  settled(): Promise<void> {
    return this.#tail
  }

  /** One write of the records as they are when it starts; saves made meanwhile join the next. */
  #write(): Promise<void> {
    if (this.#queued) return this.#queued
    const next = this.#tail.then(() => {
      this.#queued = null
      return this.#writeNow()
    })
    this.#queued = next
    this.#tail = next
    return next
  }

  /**
   * Writes run for the limiter (a request waits for its count to be on disk): a disk that
   * refuses one, or does not answer by the deadline, must not end the process or hold the
   * requests for good. The count goes on in memory and the user is told once; the next write
   * that succeeds catches the file up. Never rejects.
   */
  async #writeNow(): Promise<void> {
    const stop = new AbortController()
    let timer: NodeJS.Timeout | undefined
    try {
      const text = JSON.stringify({ version: 1, profiles: this.#all() })
      // Read back through the load's schema first: a count the next start would drop is not written.
      const check = fileSchema.safeParse(JSON.parse(text))
      if (!check.success) throw new Error(`the count would not load again (${check.error.issues[0]?.message ?? ''})`)
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          stop.abort()
          reject(new Error(`the disk did not answer in ${Math.round(this.#deadlineMs / 1000)} s`))
        }, this.#deadlineMs)
      })
      await Promise.race([writeFileAtomic(this.#path, text, { fs: this.#fs, signal: stop.signal }), deadline])
      this.#disk.saved(WHAT)
    } catch (error) {
      this.#disk.failed(WHAT, error, 'a restart would count on from the last count saved.')
    } finally {
      clearTimeout(timer)
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

  save(profileId: string, record: QuotaRecord): Promise<void> {
    const all = this.#all()
    all[profileId] = { ...record }
    return this.#write()
  }

  /** Forgets the profile's count and those of its narrower buckets (`<id>|…`, limiter-pool.ts). */
  remove(profileId: string): void {
    const all = this.#all()
    const ids = Object.keys(all).filter((id) => id === profileId || id.startsWith(`${profileId}|`))
    if (ids.length === 0) return
    for (const id of ids) delete all[id]
    void this.#write()
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

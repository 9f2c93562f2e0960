import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import * as promises from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { z } from 'zod'
import { AppError } from './app-error'
import { writeFileAtomic, writeFileAtomicSync, type WriteFs } from './atomic-file'
import { systemClock, type Clock } from './clock'
import { diskProblem, DiskWriteError } from './disk-error'
import { errorCode, errorMessage, isRecord } from '@shared/guards'

/**
 * A JSON file with a schema version, a backup of the last good content and recovery:
 *
 * - Saving writes the previous good content to `<file>.bak`, then the new content to the
 *   file, each atomically (temp, fsync, rename), so a crash at any instant leaves a valid
 *   file and a valid backup.
 * - Saving first reads the new text back through the same schema as loading: a change that
 *   would not load is refused before anything is written, so the file and its backup are
 *   always loadable.
 * - The file holds the data: `update` computes the next content from the current one, checks
 *   it, writes it and only then makes it current, so a refused or failed save changes nothing,
 *   in memory or on disk. Updates run one after another (each sees the one before), and each
 *   write is asynchronous with a deadline: a disk that hangs refuses the save, never the app.
 * - Loading migrates older versions; a damaged file is moved aside (`<file>.damaged-<time>`,
 *   nothing is deleted), the backup is restored and a notice says so. A backup that does not
 *   load either is moved aside as well, never overwritten.
 * - A file from a newer Chainscope is never overwritten: the store opens read-only.
 */
export interface VersionedFileOptions<T> {
  path: string
  version: number
  /** Validates the content of any known version and returns the current shape; throws otherwise. */
  migrate: (raw: { version: number } & Record<string, unknown>) => T
  empty: () => T
  /** A short name for notices ("watchlists"). */
  label: string
  now?: () => number
  /** A write not done in this long is given up and refused (default SAVE_DEADLINE_MS). */
  deadlineMs?: number
  /** Where the deadline is timed (default: the system clock, so fake timers apply). */
  clock?: Clock
  /** The file calls writes make (default node:fs/promises; a test's faulty disk). */
  fs?: WriteFs
}

/** What a store passes on to its file: a test's faulty disk and clock. */
export type FileFaults = Pick<VersionedFileOptions<unknown>, 'deadlineMs' | 'clock' | 'fs'>

/**
 * How long one save may take: under the bridge's 30 s answer (bridge-host.ts), so a call that
 * saves answers with the disk's own reason, never the bridge's timeout (docs/decisions/store-writes.md).
 */
export const SAVE_DEADLINE_MS = 20_000

export interface Loaded<T> {
  data: T
  /** Something the user should be told (restored from backup, damaged file kept aside). */
  notice: string | null
  readOnly: boolean
}

/** Temp files of writers that died mid-write (atomic-file.ts names them `.<file>.<pid>.<n>.tmp`). */
function removeStaleTemps(path: string): void {
  const prefix = `.${basename(path)}.`
  let names: string[]
  try {
    names = readdirSync(dirname(path))
  } catch {
    return
  }
  for (const name of names) {
    const m =
      name.startsWith(prefix) && name.endsWith('.tmp') ? /^(\d+)\.\d+\.tmp$/.exec(name.slice(prefix.length)) : null
    if (!m || isAlive(Number(m[1]))) continue
    try {
      rmSync(join(dirname(path), name), { force: true })
    } catch {
      // A read-only folder keeps its leftovers; they hide nothing (the file itself is read).
    }
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return errorCode(error) === 'EPERM'
  }
}

type Parsed<T> = { ok: true; data: T } | { ok: false; why: string; future?: boolean }

function parse<T>(text: string, options: VersionedFileOptions<T>): Parsed<T> {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return { ok: false, why: 'it is not valid JSON' }
  }
  if (!isRecord(raw) || typeof raw.version !== 'number') {
    return { ok: false, why: 'it has no schema version' }
  }
  const version = raw.version
  if (version > options.version)
    return { ok: false, why: `it was written by a newer Chainscope (schema ${version})`, future: true }
  try {
    return { ok: true, data: options.migrate({ ...raw, version }) }
  } catch (error) {
    return { ok: false, why: describeProblem(error) }
  }
}

/** One line for a notice: a schema error's message is a JSON dump of every issue. */
function describeProblem(error: unknown): string {
  if (error instanceof z.ZodError) {
    const first = error.issues[0]
    const where = first?.path.length ? first.path.join('.').slice(0, 80) : 'its top level'
    const more =
      error.issues.length > 1
        ? `, and ${error.issues.length - 1} more problem${error.issues.length > 2 ? 's' : ''}`
        : ''
    return `${where}: ${first?.message ?? 'invalid'}${more}`
  }
  return errorMessage(error).slice(0, 200)
}

export class VersionedFile<T extends { version: number }> {
  readonly #o: VersionedFileOptions<T>
  #data: T
  /** Updates in the order asked: each computes from the one before. */
  #queue: Promise<unknown> = Promise.resolve()
  /** Writes in the order made, settled either way: one given up may still be on the disk. */
  #writing: Promise<unknown> = Promise.resolve()
  /** The text last read or written; always one that `parse` accepts, so it is safe as the backup. */
  #lastGood: string | null = null
  #readOnly = false

  constructor(options: VersionedFileOptions<T>) {
    this.#o = options
    this.#data = options.empty()
  }

  /** The content last loaded or saved: what the file holds. Not to be changed in place. */
  get data(): T {
    return this.#data
  }

  get backupPath(): string {
    return `${this.#o.path}.bak`
  }

  load(): Loaded<T> {
    const loaded = this.#load()
    this.#data = loaded.data
    return loaded
  }

  #load(): Loaded<T> {
    const o = this.#o
    removeStaleTemps(o.path)
    removeStaleTemps(this.backupPath)
    const main = readText(o.path)
    if (main === null) {
      if (!existsSync(this.backupPath)) return { data: o.empty(), notice: null, readOnly: false }
      const backup = this.#fromBackup()
      if (backup.ok)
        return {
          data: backup.data,
          notice: `Your ${o.label} file was missing and has been restored from its backup.${backup.unwritten}`,
          readOnly: false,
        }
      return {
        data: o.empty(),
        notice: `Your ${o.label} file was missing and its backup could not be used (${backup.why}), so it starts empty.${backup.kept}`,
        readOnly: false,
      }
    }
    const parsed = parse(main, o)
    if (parsed.ok) {
      this.#lastGood = main
      return { data: parsed.data, notice: null, readOnly: false }
    }
    if (parsed.future) {
      this.#readOnly = true
      return {
        data: o.empty(),
        notice: `Your ${o.label} file was written by a newer version of Chainscope, so this version leaves it untouched and cannot change it. Update Chainscope to see it.`,
        readOnly: true,
      }
    }
    const aside = this.#moveAside(o.path)
    if (!aside.ok) {
      // The damaged file cannot be kept aside, so nothing may replace it: shown from the backup, changed never.
      this.#readOnly = true
      const backup = parse(readText(this.backupPath) ?? '', o)
      return {
        data: backup.ok ? backup.data : o.empty(),
        notice: `Your ${o.label} file is damaged (${parsed.why}) and could not be moved aside (${aside.why}), so Chainscope leaves it as it is${backup.ok ? ', shows its backup' : ''} and cannot save changes to it until that is fixed.`,
        readOnly: true,
      }
    }
    const backup = this.#fromBackup()
    if (backup.ok) {
      return {
        data: backup.data,
        notice: `Your ${o.label} file was damaged (${parsed.why}) and has been restored from its backup; changes after that backup may be missing. The damaged file was kept as ${aside.name}.${backup.unwritten}`,
        readOnly: false,
      }
    }
    this.#lastGood = null
    return {
      data: o.empty(),
      notice: `Your ${o.label} file was damaged (${parsed.why}) and no usable backup exists (${backup.why}), so it starts empty. The damaged file was kept as ${aside.name}.${backup.kept}`,
      readOnly: false,
    }
  }

  /** Renames a file that does not load to `<file>.damaged-<time>`: nothing is deleted. */
  #moveAside(path: string): { ok: true; name: string } | { ok: false; why: string } {
    const stamp = new Date(this.#o.now?.() ?? Date.now()).toISOString().replace(/[:.]/g, '-')
    const aside = `${path}.damaged-${stamp}`
    try {
      renameSync(path, aside)
      return { ok: true, name: basename(aside) }
    } catch (error) {
      return { ok: false, why: diskProblem(error) }
    }
  }

  /**
   * The backup, written back as the file. One that does not load is moved aside too, so that a
   * later save (which makes the last good text the backup) never replaces the only copy of it.
   */
  #fromBackup(): { ok: true; data: T; unwritten: string } | { ok: false; why: string; kept: string } {
    const text = readText(this.backupPath)
    if (text === null) return { ok: false, why: 'there is none', kept: '' }
    const parsed = parse(text, this.#o)
    if (!parsed.ok) {
      const aside = this.#moveAside(this.backupPath)
      return {
        ok: false,
        why: `the backup: ${parsed.why}`,
        kept: aside.ok ? ` The unusable backup was kept as ${aside.name}.` : '',
      }
    }
    this.#lastGood = text
    try {
      writeFileAtomicSync(this.#o.path, text)
      return { ok: true, data: parsed.data, unwritten: '' }
    } catch (error) {
      return {
        ok: true,
        data: parsed.data,
        unwritten: ` It could not be written back yet (${diskProblem(error)}); the next change tries again.`,
      }
    }
  }

  /**
   * Saves `change(current)` as the file's content, and only once it is written makes it current:
   * refused before anything is written when it would not load again; refused when the disk
   * fails or does not answer within the deadline. `change` may throw (nothing is saved) or return
   * `current` itself (nothing to save). Resolves to the content now current.
   */
  update(change: (current: T) => T): Promise<T> {
    const run = this.#queue.then(() => this.#apply(change))
    this.#queue = run.catch(() => undefined)
    return run
  }

  /** Every update asked so far is decided: saved or refused, each within the deadline. */
  async decided(): Promise<void> {
    await this.#queue
  }

  /** Every update asked so far and every write made (one given up too) has settled; may wait on a hung disk. */
  async settled(): Promise<void> {
    await this.#queue
    await this.#writing
  }

  #assertWritable(): void {
    if (this.#readOnly) {
      throw new AppError(
        'conflict',
        `The ${this.#o.label} file belongs to a newer version of Chainscope or cannot be replaced safely; this version does not change it.`,
      )
    }
  }

  async #apply(change: (current: T) => T): Promise<T> {
    this.#assertWritable()
    const next = change(this.#data)
    if (next === this.#data) return next
    const text = JSON.stringify(next, null, 1)
    const check = parse(text, this.#o)
    if (!check.ok) {
      throw new AppError(
        'invalid-input',
        `Nothing was saved: the ${this.#o.label} would not load again (${check.why}).`,
      )
    }
    if (text !== this.#lastGood) await this.#write(text)
    this.#lastGood = text
    // What the file now loads as, not the caller's object: memory is what a restart would see.
    this.#data = check.data
    return check.data
  }

  /**
   * Removes the file and its backup: the backup first, so a crash between leaves the file (still
   * there, as if not removed), never a lone backup that the next start would restore. Within the
   * deadline; afterwards `data` is empty.
   */
  remove(): Promise<void> {
    const run = this.#queue.then(async () => {
      this.#assertWritable()
      await this.#onDisk(async ({ fs = promises, signal }) => {
        await fs.rm(this.backupPath, { force: true })
        signal.throwIfAborted()
        await fs.rm(this.#o.path, { force: true })
      })
      this.#lastGood = null
      this.#data = this.#o.empty()
    })
    this.#queue = run.catch(() => undefined)
    return run
  }

  /** The backup, then the file; given up (and never renamed into place) past the deadline. */
  #write(text: string): Promise<void> {
    const backup = this.#lastGood
    return this.#onDisk(async (options) => {
      if (backup !== null && backup !== text) await writeFileAtomic(this.backupPath, backup, options)
      await writeFileAtomic(this.#o.path, text, options)
    })
  }

  /**
   * Runs `op` after every earlier one has settled (two never race on the file), and refuses it
   * past the deadline: its signal is then aborted, so it stops before its next step.
   */
  async #onDisk(op: (options: { fs?: WriteFs; signal: AbortSignal }) => Promise<void>): Promise<void> {
    const o = this.#o
    const ms = o.deadlineMs ?? SAVE_DEADLINE_MS
    const clock = o.clock ?? systemClock
    const stop = new AbortController()
    const done = this.#writing.then(() => {
      stop.signal.throwIfAborted()
      return op({ fs: o.fs, signal: stop.signal })
    })
    this.#writing = done.catch(() => undefined)
    let timer: unknown
    const late = new Promise<never>((_, reject) => {
      timer = clock.setTimeout(() => {
        stop.abort()
        reject(new Error(`the disk did not answer in ${Math.round(ms / 1000)} s; nothing was saved`))
      }, ms)
    })
    try {
      await Promise.race([done, late])
    } catch (error) {
      throw new DiskWriteError(o.label, error)
    } finally {
      clock.clearTimeout(timer)
    }
  }
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}

import { existsSync, readdirSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { CASES_VERSION, casesFileSchema, migrateCase, type CaseFile } from '@shared/domain/case-file'
import { AppError } from '../util/app-error'
import { diskProblem } from '../util/disk-error'
import { writeFileAtomicSync } from '../util/atomic-file'
import { VersionedFile, type FileFaults } from '../util/versioned-file'

/**
 * The cases, one file each: `<dataDir>/cases/<id>.json`, `{ version: 1, case }`, each a versioned
 * file (atomic writes, a backup, a damaged file set aside, a newer one left untouched). A change
 * writes and checks its own case only, so it costs in proportion to that case, not to all 200
 * (docs/decisions/case-files.md). Cases saved  by earlier versions in one `cases.json` are moved
 * here at the first start; that file is kept, renamed, never deleted. A case of version 1 (no
 * paths, positions or activity log) reads as version 2 with none (migrateCase).
 */
const caseDocSchema = z.object({ version: z.union([z.literal(1), z.literal(2)]), case: z.unknown() }).strict()
/** A file not yet written holds no case. */
type CaseDoc = { version: typeof CASES_VERSION; case: CaseFile | null }

const FILE = /^([0-9A-Za-z-]{1,80})\.json(?:\.bak)?$/
/** Suffix of the single file of earlier versions once its cases are moved. */
const MOVED = '.moved-to-cases-folder'

export interface CaseFilesOptions {
  dataDir: string
  now?: () => number
  faults?: FileFaults
}

export class CaseFiles {
  readonly #o: CaseFilesOptions
  readonly #dir: string
  readonly #files = new Map<string, VersionedFile<CaseDoc>>()
  readonly #notices: string[] = []
  /** Cases an earlier file shows that this version may not change (it is a newer Chainscope's). */
  readonly #frozen: CaseFile[] | null

  constructor(options: CaseFilesOptions) {
    this.#o = options
    this.#dir = join(options.dataDir, 'cases')
    this.#frozen = this.#moveSingleFile()
    if (this.#frozen) return
    let names: string[] = []
    try {
      names = readdirSync(this.#dir)
    } catch {
      // No folder yet: no case yet.
    }
    for (const id of new Set(names.map((n) => FILE.exec(n)?.[1]).filter((id) => id !== undefined))) {
      const file = this.#file(id)
      const loaded = file.load()
      if (loaded.notice) this.#notices.push(loaded.notice)
      if (file.data.case) this.#files.set(id, file)
    }
  }

  get notice(): string | null {
    return this.#notices.length > 0 ? this.#notices.join(' ') : null
  }

  /** In the order they were made. */
  list(): CaseFile[] {
    if (this.#frozen) return this.#frozen
    return [...this.#files.values()]
      .map((f) => f.data.case!)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
  }

  get size(): number {
    return this.list().length
  }

  /** Saves what `change` makes of case `id` (null: not saved yet); current once written. */
  async put(id: string, change: (current: CaseFile | null) => CaseFile): Promise<CaseFile> {
    this.#assertWritable()
    const file = this.#files.get(id) ?? this.#file(id)
    const saved = await file.update((doc) => ({ version: CASES_VERSION, case: change(doc.case) }))
    this.#files.set(id, file)
    return saved.case!
  }

  async remove(id: string): Promise<void> {
    this.#assertWritable()
    const file = this.#files.get(id)
    if (!file) return
    await file.remove()
    this.#files.delete(id)
  }

  #assertWritable(): void {
    if (this.#frozen)
      throw new AppError(
        'conflict',
        'The cases file belongs to a newer version of Chainscope or cannot be replaced safely; this version does not change it.',
      )
  }

  #file(id: string): VersionedFile<CaseDoc> {
    return new VersionedFile<CaseDoc>({
      path: join(this.#dir, `${id}.json`),
      version: CASES_VERSION,
      label: `case (${id}.json)`,
      migrate: (raw) => {
        const doc = caseDocSchema.parse(raw)
        return { version: CASES_VERSION, case: migrateCase(doc.case, doc.version) }
      },
      empty: () => ({ version: CASES_VERSION, case: null }),
      now: this.#o.now,
      ...this.#o.faults,
    })
  }

  /**
   * The single `cases.json` of earlier versions, moved into the folder: each of its cases
   * written as its own file (one already there is the same case, moved by a start that stopped
   * half way), then the file and its backup renamed aside. A newer version's file is left as it
   * is and its cases (none this version can read) are shown frozen.
   */
  #moveSingleFile(): CaseFile[] | null {
    const path = join(this.#o.dataDir, 'cases.json')
    if (!existsSync(path) && !existsSync(`${path}.bak`)) return null
    const single = new VersionedFile<{ version: number; cases: CaseFile[] }>({
      path,
      version: 1,
      label: 'cases',
      migrate: (raw) => ({ version: 1, cases: casesFileSchema.parse(raw).cases.map((c) => migrateCase(c, 1)) }),
      empty: () => ({ version: 1, cases: [] }),
      now: this.#o.now,
    })
    const loaded = single.load()
    if (loaded.notice) this.#notices.push(loaded.notice)
    if (loaded.readOnly) return loaded.data.cases
    try {
      for (const c of loaded.data.cases) {
        const target = join(this.#dir, `${c.id}.json`)
        if (!existsSync(target))
          writeFileAtomicSync(target, JSON.stringify({ version: CASES_VERSION, case: c }, null, 1))
      }
      // The backup first: a lone backup would be restored (and moved again) by the next start.
      for (const p of [`${path}.bak`, path]) if (existsSync(p)) renameSync(p, `${p}${MOVED}`)
      return null
    } catch (error) {
      this.#notices.push(
        `Your cases could not be moved into their folder (${diskProblem(error)}): they are shown, and cannot be changed until that is fixed.`,
      )
      return loaded.data.cases
    }
  }
}

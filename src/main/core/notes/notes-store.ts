import { z } from 'zod'
import { join } from 'node:path'
import type { Note } from '@shared/bridge/contract'
import { networkName } from '@shared/domain/profile'
import { AppError } from '../util/app-error'
import { VersionedFile, type FileFaults } from '../util/versioned-file'
import { diskProblem, DiskWriteError } from '../util/disk-error'
import { ADDRESS_OR_HASH_PATTERN } from '@shared/domain/address'
import { WATCH_LIMITS } from '@shared/domain/watch-limits'

/**
 * Local notes on transactions and addresses, apart from watchlist notes: a note
 * belongs to a hash or an address on one network whether or not it is watched.
 *
 * File `<dataDir>/notes.json`, schema version 1:
 *   { version: 1, notes: [{ kind: 'tx'|'address', network, key, text, updatedAt }] }
 * Kept like the watchlists (versioned-file.ts): atomic writes, a backup of the last good
 * file, a damaged file moved aside, a newer file left untouched.
 */
const NOTES_VERSION = 1
const MAX_NOTES = 50_000
const MAX_NOTE_LENGTH = WATCH_LIMITS.note

const key = z
  .string()
  .refine(
    (k) => ADDRESS_OR_HASH_PATTERN.test(k) && k === k.toLowerCase(),
    'expected a lowercase address or transaction hash',
  )
export const noteSchema = z.object({
  kind: z.enum(['tx', 'address']),
  network: networkName,
  key,
  text: z.string().min(1).max(MAX_NOTE_LENGTH),
  updatedAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO time'),
})
const fileSchema = z.object({ version: z.literal(1), notes: z.array(noteSchema).max(MAX_NOTES) })
type NotesFile = z.infer<typeof fileSchema>

const noteId = (n: Pick<Note, 'kind' | 'network' | 'key'>): string => `${n.kind}|${n.network}|${n.key.toLowerCase()}`

export interface NotesStoreOptions {
  /** The file is `<dataDir>/notes.json`, its backup `notes.json.bak`. */
  dataDir: string
  now?: () => number
  onChange?: (notes: Note[]) => void
  /** A test's faulty disk and clock. */
  faults?: FileFaults
}

/** One writer for the notes: every change is written first and only then made current. */
export class NotesStore {
  readonly #file: VersionedFile<NotesFile>
  readonly #now: () => number
  readonly #onChange: NotesStoreOptions['onChange']
  /** The file's notes by id, made again when the file's content changes. */
  #byId: { of: NotesFile; map: Map<string, Note> } | null = null
  readonly notice: string | null
  /** Bumped on every change, so the search index knows when to re-read. */
  revision = 0

  constructor(options: NotesStoreOptions) {
    this.#now = options.now ?? Date.now
    this.#onChange = options.onChange
    this.#file = new VersionedFile<NotesFile>({
      path: join(options.dataDir, 'notes.json'),
      version: NOTES_VERSION,
      label: 'notes',
      migrate: (raw) => fileSchema.parse(raw),
      empty: () => ({ version: 1, notes: [] }),
      now: this.#now,
      ...options.faults,
    })
    this.notice = this.#file.load().notice
  }

  get #notes(): Map<string, Note> {
    const of = this.#file.data
    if (this.#byId?.of !== of) this.#byId = { of, map: new Map(of.notes.map((n) => [noteId(n), n])) }
    return this.#byId.map
  }

  list(): Note[] {
    return [...this.#notes.values()].map((n) => ({ ...n }))
  }

  /** Sets (or, with blank text, removes) one note. */
  async set(input: Omit<Note, 'updatedAt'>): Promise<Note | null> {
    const note: Note = {
      ...input,
      key: input.key.toLowerCase(),
      text: input.text.slice(0, MAX_NOTE_LENGTH),
      updatedAt: new Date(this.#now()).toISOString(),
    }
    await this.#commit((notes) => {
      const next = new Map(notes)
      if (note.text.trim() === '') next.delete(noteId(note))
      else next.set(noteId(note), note)
      return next
    })
    return note.text.trim() === '' ? null : { ...note }
  }

  /** Merges imported notes: a newer `updatedAt` wins, so importing an old export loses nothing. */
  async merge(notes: Note[]): Promise<number> {
    let changed = 0
    await this.#commit((mine) => {
      const next = new Map(mine)
      changed = 0
      for (const n of notes) {
        const id = noteId(n)
        const kept = next.get(id)
        if (kept && Date.parse(kept.updatedAt) >= Date.parse(n.updatedAt)) continue
        next.set(id, { ...n, key: n.key.toLowerCase() })
        changed++
      }
      return changed > 0 ? next : mine
    })
    return changed
  }

  /** What `change` makes of the notes current when its turn comes, current only once saved. */
  async #commit(change: (notes: Map<string, Note>) => Map<string, Note>): Promise<void> {
    const before = this.#file.data
    try {
      await this.#file.update((file) => {
        const notes = this.#notes
        const next = change(notes)
        if (next === notes) return file
        if (next.size > MAX_NOTES)
          throw new AppError(
            'invalid-input',
            `Chainscope keeps at most ${MAX_NOTES.toLocaleString('en-US')} notes; remove some first.`,
          )
        return { version: NOTES_VERSION, notes: [...next.values()] }
      })
    } catch (error) {
      if (error instanceof AppError && !(error instanceof DiskWriteError)) throw error
      throw new AppError('internal', `The notes could not be saved (${diskProblem(error)}); nothing was changed.`)
    }
    if (this.#file.data === before) return
    this.revision++
    this.#onChange?.(this.list())
  }
}

import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { ExportFile, WatchEntry, Watchlist } from '@shared/bridge/contract'
import { AppError } from '../util/app-error'
import { VersionedFile } from '../util/versioned-file'
import { diskProblem, DiskWriteError } from '../util/disk-error'
import { exportLists, parseImport } from './watchlist-io'
import { migrateWatchlists, WATCHLIST_VERSION, type WatchlistFile } from './watchlist-schema'
import type { Address } from '@shared/domain/address'
import { WATCH_LIMITS } from '@shared/domain/watch-limits'

export interface WatchlistStoreOptions {
  /** The file is `<dataDir>/watchlists.json`, its backup `watchlists.json.bak`. */
  dataDir: string
  now?: () => number
  onChange?: (lists: Watchlist[]) => void
}

/** An entry as the bridge hands it over: its address parsed (lowercase, checked) already. */
export type NewEntry = Omit<WatchEntry, 'id' | 'addedAt' | 'address'> & { address: Address }

/**
 * Named watchlists. Every change is computed on a copy, written (atomic, with a backup of the
 * last good file) and only then made current: if the disk refuses, nothing changes and the
 * caller gets a typed error, so no saved data is lost.
 */
export class WatchlistStore {
  readonly #file: VersionedFile<WatchlistFile>
  readonly #now: () => number
  readonly #onChange: ((lists: Watchlist[]) => void) | undefined
  #lists: Watchlist[]
  /** Set when the file had to be restored or could not be read; shown to the user once. */
  readonly notice: string | null
  readonly readOnly: boolean

  constructor(options: WatchlistStoreOptions) {
    this.#now = options.now ?? Date.now
    this.#onChange = options.onChange
    this.#file = new VersionedFile<WatchlistFile>({
      path: join(options.dataDir, 'watchlists.json'),
      version: WATCHLIST_VERSION,
      label: 'watchlists',
      migrate: migrateWatchlists,
      empty: () => ({ version: 2, lists: [] }),
      now: this.#now,
    })
    const loaded = this.#file.load()
    this.#lists = loaded.data.lists
    this.notice = loaded.notice
    this.readOnly = loaded.readOnly
  }

  list(): Watchlist[] {
    return structuredClone(this.#lists)
  }

  create(name: string): Watchlist {
    this.#assertFreeName(name)
    this.#assertRoomForLists(1, 'Delete one first.')
    const list: Watchlist = { id: randomUUID(), name, entries: [] }
    this.#commit([...this.#lists, list])
    return structuredClone(list)
  }

  rename(id: string, name: string): Watchlist {
    this.#find(id)
    this.#assertFreeName(name, id)
    return this.#commitList(id, (l) => ({ ...l, name }))
  }

  delete(id: string): void {
    this.#find(id)
    this.#commit(this.#lists.filter((l) => l.id !== id))
  }

  addEntry(listId: string, entry: NewEntry): Watchlist {
    return this.#commitList(listId, (l) => {
      if (l.entries.some((e) => e.address === entry.address && e.network === entry.network)) {
        throw new AppError('conflict', `"${l.name}" already holds this address on ${entry.network}.`, {
          field: 'entry.address',
        })
      }
      assertRoomIn(l, 'listId')
      const added: WatchEntry = {
        id: randomUUID(),
        ...entry,
        tags: [...new Set(entry.tags)],
        addedAt: new Date(this.#now()).toISOString(),
      }
      if (added.alsoNetworks) added.alsoNetworks = otherNetworks(added.alsoNetworks, added.network)
      return { ...l, entries: [...l.entries, added] }
    })
  }

  updateEntry(
    listId: string,
    entryId: string,
    patch: Partial<Pick<WatchEntry, 'label' | 'note' | 'tags' | 'alsoNetworks'>>,
  ): Watchlist {
    return this.#commitList(listId, (l) => {
      this.#entry(l, entryId)
      const clean = { ...patch, ...(patch.tags ? { tags: [...new Set(patch.tags)] } : {}) }
      return {
        ...l,
        entries: l.entries.map((e) =>
          e.id === entryId
            ? {
                ...e,
                ...clean,
                ...(clean.alsoNetworks ? { alsoNetworks: otherNetworks(clean.alsoNetworks, e.network) } : {}),
              }
            : e,
        ),
      }
    })
  }

  removeEntry(listId: string, entryId: string): Watchlist {
    return this.#commitList(listId, (l) => {
      this.#entry(l, entryId)
      return { ...l, entries: l.entries.filter((e) => e.id !== entryId) }
    })
  }

  /** Moves an entry (keeping its id, note and date) to another list. */
  moveEntry(fromId: string, toId: string, entryId: string): Watchlist[] {
    const from = this.#find(fromId)
    const to = this.#find(toId)
    const entry = this.#entry(from, entryId)
    if (fromId === toId) return structuredClone([from])
    if (to.entries.some((e) => e.address === entry.address && e.network === entry.network)) {
      throw new AppError('conflict', `"${to.name}" already holds this address on ${entry.network}.`, {
        field: 'toListId',
      })
    }
    assertRoomIn(to, 'toListId')
    const next = this.#lists.map((l) => {
      if (l.id === fromId) return { ...l, entries: l.entries.filter((e) => e.id !== entryId) }
      if (l.id === toId) return { ...l, entries: [...l.entries, entry] }
      return l
    })
    this.#commit(next)
    return structuredClone(next.filter((l) => l.id === fromId || l.id === toId))
  }

  /** Imports into new lists (a name already taken gets " (2)", " (3)"…); all rows or none. */
  import(format: 'json' | 'csv', text: string, listName?: string): { lists: number; entries: number } {
    const nowIso = new Date(this.#now()).toISOString()
    const parsed = parseImport(format, text, listName ?? `Imported ${nowIso.slice(0, 10)}`, nowIso)
    this.#assertRoomForLists(
      parsed.length,
      `You have ${this.#lists.length.toLocaleString('en-US')} already and the file would add ${parsed.length.toLocaleString('en-US')} more, so nothing was imported. Delete some lists first, or import a file with fewer lists.`,
    )
    const taken = new Set(this.#lists.map((l) => l.name.toLowerCase()))
    const added: Watchlist[] = parsed.map((p) => {
      const name = freeName(p.name, taken)
      taken.add(name.toLowerCase())
      return { id: randomUUID(), name, entries: p.entries.map((e) => ({ id: randomUUID(), ...e })) }
    })
    this.#commit([...this.#lists, ...added])
    return { lists: added.length, entries: added.reduce((n, l) => n + l.entries.length, 0) }
  }

  export(format: 'json' | 'csv', listId?: string): ExportFile {
    const lists = listId ? [this.#find(listId)] : this.#lists
    return exportLists(lists, format, new Date(this.#now()), listId !== undefined)
  }

  #find(id: string): Watchlist {
    const list = this.#lists.find((l) => l.id === id)
    if (!list) throw new AppError('not-found', 'That watchlist no longer exists.', { field: 'listId' })
    return list
  }

  #entry(list: Watchlist, entryId: string): WatchEntry {
    const entry = list.entries.find((e) => e.id === entryId)
    if (!entry) throw new AppError('not-found', `That entry is no longer in "${list.name}".`, { field: 'entryId' })
    return entry
  }

  #assertFreeName(name: string, except?: string): void {
    if (this.#lists.some((l) => l.id !== except && l.name.toLowerCase() === name.toLowerCase())) {
      throw new AppError('conflict', `A watchlist named "${name}" already exists.`, { field: 'name' })
    }
  }

  #assertRoomForLists(more: number, advice: string): void {
    if (this.#lists.length + more > WATCH_LIMITS.lists)
      throw new AppError('invalid-input', `Chainscope keeps at most ${WATCH_LIMITS.lists} watchlists. ${advice}`)
  }

  #commitList(id: string, change: (l: Watchlist) => Watchlist): Watchlist {
    const changed = change(this.#find(id))
    this.#commit(this.#lists.map((l) => (l.id === id ? changed : l)))
    return structuredClone(changed)
  }

  #commit(next: Watchlist[]): void {
    if (next.reduce((n, l) => n + l.entries.length, 0) > 50_000) {
      throw new AppError('invalid-input', 'Watchlists can hold 50,000 entries in all; remove some first.')
    }
    try {
      this.#file.save({ version: WATCHLIST_VERSION, lists: next } satisfies WatchlistFile)
    } catch (error) {
      if (error instanceof AppError && !(error instanceof DiskWriteError)) throw error
      throw new AppError('internal', `The watchlists could not be saved (${diskProblem(error)}); nothing was changed.`)
    }
    this.#lists = next
    this.#onChange?.(this.list())
  }
}

/** Room for one more entry: the file's schema (watchlist-schema.ts) holds no more. */
function assertRoomIn(list: Watchlist, field: string): void {
  if (list.entries.length >= WATCH_LIMITS.entries)
    throw new AppError(
      'invalid-input',
      `"${list.name}" holds ${WATCH_LIMITS.entries.toLocaleString('en-US')} entries, the most one list can hold; remove some or use another list.`,
      { field },
    )
}

/** The entry's own network is implied; repeats are dropped. */
function otherNetworks(names: string[], own: string): string[] {
  return [...new Set(names)].filter((n) => n !== own)
}

function freeName(name: string, taken: Set<string>): string {
  if (!taken.has(name.toLowerCase())) return name
  for (let n = 2; ; n++) {
    const candidate = `${name.slice(0, 54)} (${n})`
    if (!taken.has(candidate.toLowerCase())) return candidate
  }
}

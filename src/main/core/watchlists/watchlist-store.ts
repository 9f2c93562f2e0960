import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { ExportFile, WatchEntry, Watchlist } from '@shared/bridge/contract'
import { AppError } from '../util/app-error'
import { VersionedFile, type FileFaults } from '../util/versioned-file'
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
  /** A test's faulty disk and clock. */
  faults?: FileFaults
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
      ...options.faults,
    })
    const loaded = this.#file.load()
    this.notice = loaded.notice
    this.readOnly = loaded.readOnly
  }

  get #lists(): Watchlist[] {
    return this.#file.data.lists
  }

  list(): Watchlist[] {
    return structuredClone(this.#lists)
  }

  async create(name: string): Promise<Watchlist> {
    const list: Watchlist = { id: randomUUID(), name, entries: [] }
    await this.#commit((lists) => {
      assertFreeName(lists, name)
      assertRoomForLists(lists, 1, 'Delete one first.')
      return [...lists, list]
    })
    return structuredClone(list)
  }

  rename(id: string, name: string): Promise<Watchlist> {
    return this.#commitList(id, (l, lists) => {
      assertFreeName(lists, name, id)
      return { ...l, name }
    })
  }

  async delete(id: string): Promise<void> {
    await this.#commit((lists) => {
      find(lists, id)
      return lists.filter((l) => l.id !== id)
    })
  }

  addEntry(listId: string, entry: NewEntry): Promise<Watchlist> {
    const id = randomUUID()
    const addedAt = new Date(this.#now()).toISOString()
    return this.#commitList(listId, (l) => {
      if (l.entries.some((e) => e.address === entry.address && e.network === entry.network)) {
        throw new AppError('conflict', `"${l.name}" already holds this address on ${entry.network}.`, {
          field: 'entry.address',
        })
      }
      assertRoomIn(l, 'listId')
      const added: WatchEntry = { id, ...entry, tags: [...new Set(entry.tags)], addedAt }
      if (added.alsoNetworks) added.alsoNetworks = otherNetworks(added.alsoNetworks, added.network)
      return { ...l, entries: [...l.entries, added] }
    })
  }

  /**
   * Adds a pasted list in one write, all or nothing: an address already there (on that network)
   * or too many for the list refuses the whole list, so a preview shown before is never half
   * applied (docs/decisions/bulk-address-paste.md).
   */
  addEntries(listId: string, entries: NewEntry[]): Promise<Watchlist> {
    const addedAt = new Date(this.#now()).toISOString()
    return this.#commitList(listId, (l) => {
      const held = new Set(l.entries.map((e) => `${e.network}|${e.address}`))
      const added: WatchEntry[] = []
      for (const entry of entries) {
        const key = `${entry.network}|${entry.address}`
        if (held.has(key))
          throw new AppError(
            'conflict',
            `"${l.name}" already holds ${entry.address} on ${entry.network}; nothing was added.`,
            {
              field: 'entries',
            },
          )
        held.add(key)
        const e: WatchEntry = { id: randomUUID(), ...entry, tags: [...new Set(entry.tags)], addedAt }
        if (e.alsoNetworks) e.alsoNetworks = otherNetworks(e.alsoNetworks, e.network)
        added.push(e)
      }
      if (l.entries.length + added.length > WATCH_LIMITS.entries)
        throw new AppError(
          'invalid-input',
          `"${l.name}" has room for ${Math.max(0, WATCH_LIMITS.entries - l.entries.length)} more entries, not ${added.length}; nothing was added.`,
          { field: 'entries' },
        )
      return { ...l, entries: [...l.entries, ...added] }
    })
  }

  updateEntry(
    listId: string,
    entryId: string,
    patch: Partial<Pick<WatchEntry, 'label' | 'note' | 'tags' | 'alsoNetworks'>>,
  ): Promise<Watchlist> {
    return this.#commitList(listId, (l) => {
      entryOf(l, entryId)
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

  removeEntry(listId: string, entryId: string): Promise<Watchlist> {
    return this.#commitList(listId, (l) => {
      entryOf(l, entryId)
      return { ...l, entries: l.entries.filter((e) => e.id !== entryId) }
    })
  }

  /** Moves an entry (keeping its id, note and date) to another list. */
  async moveEntry(fromId: string, toId: string, entryId: string): Promise<Watchlist[]> {
    await this.#commit((lists) => {
      const from = find(lists, fromId)
      const to = find(lists, toId)
      const entry = entryOf(from, entryId)
      if (fromId === toId) return lists
      if (to.entries.some((e) => e.address === entry.address && e.network === entry.network)) {
        throw new AppError('conflict', `"${to.name}" already holds this address on ${entry.network}.`, {
          field: 'toListId',
        })
      }
      assertRoomIn(to, 'toListId')
      return lists.map((l) => {
        if (l.id === fromId) return { ...l, entries: l.entries.filter((e) => e.id !== entryId) }
        if (l.id === toId) return { ...l, entries: [...l.entries, entry] }
        return l
      })
    })
    return structuredClone(this.#lists.filter((l) => l.id === fromId || l.id === toId))
  }

  /** Imports into new lists (a name already taken gets " (2)", " (3)"…); all rows or none. */
  async import(format: 'json' | 'csv', text: string, listName?: string): Promise<{ lists: number; entries: number }> {
    const nowIso = new Date(this.#now()).toISOString()
    const parsed = parseImport(format, text, listName ?? `Imported ${nowIso.slice(0, 10)}`, nowIso)
    let added: Watchlist[] = []
    await this.#commit((lists) => {
      assertRoomForLists(
        lists,
        parsed.length,
        `You have ${lists.length.toLocaleString('en-US')} already and the file would add ${parsed.length.toLocaleString('en-US')} more, so nothing was imported. Delete some lists first, or import a file with fewer lists.`,
      )
      const taken = new Set(lists.map((l) => l.name.toLowerCase()))
      added = parsed.map((p) => {
        const name = freeName(p.name, taken)
        taken.add(name.toLowerCase())
        return { id: randomUUID(), name, entries: p.entries.map((e) => ({ id: randomUUID(), ...e })) }
      })
      return [...lists, ...added]
    })
    return { lists: added.length, entries: added.reduce((n, l) => n + l.entries.length, 0) }
  }

  export(format: 'json' | 'csv', listId?: string): ExportFile {
    const lists = listId ? [find(this.#lists, listId)] : this.#lists
    return exportLists(lists, format, new Date(this.#now()), listId !== undefined)
  }

  async #commitList(id: string, change: (l: Watchlist, lists: Watchlist[]) => Watchlist): Promise<Watchlist> {
    await this.#commit((lists) => {
      const changed = change(find(lists, id), lists)
      return lists.map((l) => (l.id === id ? changed : l))
    })
    return structuredClone(find(this.#lists, id))
  }

  /** What `change` makes of the lists current when its turn comes, current only once saved. */
  async #commit(change: (lists: Watchlist[]) => Watchlist[]): Promise<void> {
    const before = this.#file.data
    try {
      await this.#file.update((file) => {
        const next = change(file.lists)
        if (next === file.lists) return file
        if (next.reduce((n, l) => n + l.entries.length, 0) > 50_000) {
          throw new AppError('invalid-input', 'Watchlists can hold 50,000 entries in all; remove some first.')
        }
        return { version: WATCHLIST_VERSION, lists: next } satisfies WatchlistFile
      })
    } catch (error) {
      if (error instanceof AppError && !(error instanceof DiskWriteError)) throw error
      throw new AppError('internal', `The watchlists could not be saved (${diskProblem(error)}); nothing was changed.`)
    }
    if (this.#file.data !== before) this.#onChange?.(this.list())
  }
}

function find(lists: readonly Watchlist[], id: string): Watchlist {
  const list = lists.find((l) => l.id === id)
  if (!list) throw new AppError('not-found', 'That watchlist no longer exists.', { field: 'listId' })
  return list
}

function entryOf(list: Watchlist, entryId: string): WatchEntry {
  const entry = list.entries.find((e) => e.id === entryId)
  if (!entry) throw new AppError('not-found', `That entry is no longer in "${list.name}".`, { field: 'entryId' })
  return entry
}

function assertFreeName(lists: readonly Watchlist[], name: string, except?: string): void {
  if (lists.some((l) => l.id !== except && l.name.toLowerCase() === name.toLowerCase())) {
    throw new AppError('conflict', `A watchlist named "${name}" already exists.`, { field: 'name' })
  }
}

function assertRoomForLists(lists: readonly Watchlist[], more: number, advice: string): void {
  if (lists.length + more > WATCH_LIMITS.lists)
    throw new AppError('invalid-input', `Chainscope keeps at most ${WATCH_LIMITS.lists} watchlists. ${advice}`)
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

import type { ExportFile } from '@shared/bridge/contract'
import type { NotesStore } from '../notes/notes-store'
import { notesFromImport, withNotes } from '../notes/notes-io'
import type { WatchlistStore } from './watchlist-store'

/**
 * The watchlists' files, which carry the notes too when they are the whole backup (the JSON
 * export of every list; notes-io.ts says how): importing one merges its notes.
 */
export class WatchlistBackup {
  readonly #watchlists: WatchlistStore
  readonly #notes: NotesStore

  constructor(watchlists: WatchlistStore, notes: NotesStore) {
    this.#watchlists = watchlists
    this.#notes = notes
  }

  /** `notes`: how many notes the file changed, when it carried any. */
  async import(
    format: 'json' | 'csv',
    text: string,
    listName?: string,
  ): Promise<{ lists: number; entries: number; notes?: number }> {
    // The notes are checked first, so a bad note imports nothing.
    const carried = format === 'json' ? notesFromImport(text) : { notes: [], notesOnly: false }
    const counts = carried.notesOnly ? { lists: 0, entries: 0 } : await this.#watchlists.import(format, text, listName)
    return carried.notes.length ? { ...counts, notes: await this.#notes.merge(carried.notes) } : counts
  }

  /** One list's file, or every list's with the notes (the backup). */
  export(format: 'json' | 'csv', listId?: string): ExportFile {
    const file = this.#watchlists.export(format, listId)
    return listId === undefined ? withNotes(file, this.#notes.list()) : file
  }
}

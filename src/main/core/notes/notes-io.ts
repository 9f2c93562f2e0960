import type { ExportFile, Note } from '@shared/bridge/contract'
import { AppError } from '../util/app-error'
import { noteSchema } from './notes-store'

/**
 * Notes ride along in the watchlists' JSON export (the one backup file a user keeps) as a
 * top-level `notes` array; the CSV export stays a table of entries. Importing such a file
 * merges the notes. Files without `notes` (older exports, other tools) import as before.
 */
export function withNotes(file: ExportFile, notes: Note[]): ExportFile {
  if (file.mime !== 'application/json' || notes.length === 0) return file
  const doc: unknown = JSON.parse(file.text)
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return file
  return { ...file, text: JSON.stringify({ ...doc, notes }, null, 2) + '\n' }
}

export interface NotesInImport {
  notes: Note[]
  /** True when the file holds notes and no watchlist entries at all (a notes-only backup). */
  notesOnly: boolean
}

/** Reads `notes` from an import; every bad note is named and nothing is imported then. */
export function notesFromImport(text: string): NotesInImport {
  let doc: unknown
  try {
    doc = JSON.parse(text)
  } catch {
    return { notes: [], notesOnly: false } // the watchlist import reports unreadable JSON
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc) || !('notes' in doc))
    return { notes: [], notesOnly: false }
  const raw = doc.notes
  if (!Array.isArray(raw))
    throw new AppError('invalid-input', 'The file\'s "notes" must be a list of notes.', { field: 'text' })
  const notes: Note[] = []
  const rows: { row: number; message: string }[] = []
  raw.forEach((item, i) => {
    const parsed = noteSchema.safeParse(lowerKey(item))
    if (parsed.success) notes.push(parsed.data)
    else
      rows.push({
        row: i + 1,
        message: parsed.error.issues.map((x) => `${x.path.join('.') || 'note'}: ${x.message}`).join('; '),
      })
  })
  if (rows.length > 0) {
    throw new AppError(
      'invalid-input',
      `Nothing was imported: ${rows.length} note${rows.length === 1 ? ' has a problem' : 's have problems'} (first: note ${rows[0]!.row}: ${rows[0]!.message}).`,
      {
        field: 'text',
        rows: rows.slice(0, 100),
      },
    )
  }
  const lists = 'lists' in doc && Array.isArray(doc.lists) ? doc.lists : []
  const entries = 'entries' in doc && Array.isArray(doc.entries) ? doc.entries.length : 0
  const listEntries = lists.reduce<number>(
    (n, l) =>
      n + (typeof l === 'object' && l !== null && 'entries' in l && Array.isArray(l.entries) ? l.entries.length : 0),
    0,
  )
  return { notes, notesOnly: entries + listEntries === 0 }
}

function lowerKey(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || !('key' in item) || typeof item.key !== 'string') return item
  return { ...item, key: item.key.toLowerCase() }
}

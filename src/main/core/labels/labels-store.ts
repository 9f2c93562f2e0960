import { join } from 'node:path'
import { z } from 'zod'
import type { ExportFile } from '../../../shared/bridge/contract'
import { LABEL_LIMITS, labelId, type AddressLabel, type LabelImportPreview } from '../../../shared/domain/address-label'
import { networkName } from '../../../shared/domain/profile'
import { watchLabel, watchNote } from '../../../shared/domain/watch-schemas'
import { AppError } from '../util/app-error'
import { diskProblem, DiskWriteError } from '../util/disk-error'
import { VersionedFile } from '../util/versioned-file'
import { formatLabelsCsv, parseLabelsCsv, type LabelRow } from './labels-csv'

/**
 * Address labels kept apart from watchlists and notes, in `<dataDir>/labels.json`:
 *   { version: 1, labels: [{ address, network, label, note, updatedAt }] }
 * A store of its own rather than rows in notes.json: an import is then one atomic write (all
 * rows or none), a file from another tool never touches the notes the user wrote, and a label
 * (a short name shown in lists) stays apart from a note (free text). Saved through
 * versioned-file.ts: backup, damaged file kept aside, a newer file left untouched.
 *
 * Where a name is shown, a watchlist label comes first, then this label, then the service's
 * name, ENS name and first tag.
 */
export const LABELS_VERSION = 1

const labelSchema = z.object({
  address: z.string().regex(/^0x[0-9a-f]{40}$/, 'expected a lowercase address'),
  network: networkName,
  label: watchLabel,
  note: watchNote,
  updatedAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO time'),
})
const fileSchema = z.object({ version: z.literal(1), labels: z.array(labelSchema).max(LABEL_LIMITS.labels) })
type LabelsFile = z.infer<typeof fileSchema>

export interface LabelsStoreOptions {
  dataDir: string
  now?: () => number
  onChange?: (labels: AddressLabel[]) => void
}

type Incoming = Omit<AddressLabel, 'updatedAt'>

export interface LabelImportResult {
  added: number
  replaced: number
  /** Changed rows the user did not pick: their old label stays. */
  kept: number
}

export class LabelsStore {
  readonly #file: VersionedFile<LabelsFile>
  readonly #now: () => number
  readonly #onChange: LabelsStoreOptions['onChange']
  #labels = new Map<string, AddressLabel>()
  readonly notice: string | null

  constructor(options: LabelsStoreOptions) {
    this.#now = options.now ?? Date.now
    this.#onChange = options.onChange
    this.#file = new VersionedFile<LabelsFile>({
      path: join(options.dataDir, 'labels.json'),
      version: LABELS_VERSION,
      label: 'address labels',
      migrate: (raw) => fileSchema.parse(raw),
      empty: () => ({ version: 1, labels: [] }),
      now: this.#now,
    })
    const loaded = this.#file.load()
    for (const l of loaded.data.labels) this.#labels.set(labelId(l), l)
    this.notice = loaded.notice
  }

  list(): AddressLabel[] {
    return [...this.#labels.values()].map((l) => ({ ...l }))
  }

  /** What importing `text` would add and change; nothing is written. */
  preview(text: string, network: string): LabelImportPreview {
    const parsed = parseLabelsCsv(text, network)
    const { added, changed, same } = this.#diff(parsed.rows)
    return {
      added: added.map(({ address, network: n, label, note }) => ({ address, network: n, label, note })),
      changed: changed.map(({ next, old }) => ({
        address: next.address,
        network: next.network,
        old: { label: old.label, note: old.note },
        next: { label: next.label, note: next.note },
      })),
      same,
      empty: parsed.empty,
      ignoredColumns: parsed.ignoredColumns,
      layout: parsed.layout,
    }
  }

  /**
   * Adds every new label and replaces only the changed ones named in `replace` (ids from
   * `labelId`); the file is read again, so a label changed since the preview is never
   * overwritten unasked. One write: all or nothing.
   */
  import(text: string, network: string, replace: readonly string[]): LabelImportResult {
    const { added, changed } = this.#diff(parseLabelsCsv(text, network).rows)
    const chosen = new Set(replace)
    const picked = changed.filter((c) => chosen.has(labelId(c.next)))
    const at = new Date(this.#now()).toISOString()
    const next = new Map(this.#labels)
    for (const r of [...added, ...picked.map((c) => c.next)]) next.set(labelId(r), { ...r, updatedAt: at })
    const result = { added: added.length, replaced: picked.length, kept: changed.length - picked.length }
    if (result.added + result.replaced > 0) this.#commit(next)
    return result
  }

  export(): ExportFile {
    return { filename: 'chainscope-labels.csv', mime: 'text/csv', text: formatLabelsCsv(this.list()) }
  }

  /** Each row as the label it would become: a column the file lacks keeps what is kept now. */
  #diff(rows: LabelRow[]): { added: Incoming[]; changed: { next: Incoming; old: AddressLabel }[]; same: number } {
    const added: Incoming[] = []
    const changed: { next: Incoming; old: AddressLabel }[] = []
    let same = 0
    for (const row of rows) {
      const old = this.#labels.get(labelId(row))
      const next = {
        address: row.address,
        network: row.network,
        label: row.label ?? old?.label ?? '',
        note: row.note ?? old?.note ?? '',
      }
      if (!old) added.push(next)
      else if (old.label === next.label && old.note === next.note) same++
      else changed.push({ next, old })
    }
    return { added, changed, same }
  }

  #commit(next: Map<string, AddressLabel>): void {
    if (next.size > LABEL_LIMITS.labels)
      throw new AppError(
        'invalid-input',
        `Chainscope keeps at most ${LABEL_LIMITS.labels.toLocaleString('en-US')} address labels; nothing was imported.`,
      )
    try {
      this.#file.save({ version: LABELS_VERSION, labels: [...next.values()] })
    } catch (error) {
      if (error instanceof AppError && !(error instanceof DiskWriteError)) throw error
      throw new AppError('internal', `The labels could not be saved (${diskProblem(error)}); nothing was imported.`)
    }
    this.#labels = next
    this.#onChange?.(this.list())
  }
}

import { join } from 'node:path'
import { z } from 'zod'
import type { ExportFile } from '@shared/bridge/contract'
import { lowerAddressSchema, type Address } from '@shared/domain/address'
import { LABEL_LIMITS, labelId, type AddressLabel, type LabelImportPreview } from '@shared/domain/address-label'
import { networkName } from '@shared/domain/profile'
import { watchLabel, watchNote } from '@shared/domain/watch-schemas'
import { AppError } from '../util/app-error'
import { diskProblem, DiskWriteError } from '../util/disk-error'
import { VersionedFile, type FileFaults } from '../util/versioned-file'
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
const LABELS_VERSION = 1

const labelSchema = z.object({
  address: lowerAddressSchema,
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
  /** A test's faulty disk and clock. */
  faults?: FileFaults
}

type Incoming = Omit<AddressLabel, 'updatedAt'>
type LabelText = Pick<AddressLabel, 'label' | 'note'>

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
  /** The file's labels by id, made again when the file's content changes. */
  #byId: { of: LabelsFile; map: Map<string, AddressLabel> } | null = null
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
      ...options.faults,
    })
    this.notice = this.#file.load().notice
  }

  get #labels(): Map<string, AddressLabel> {
    const of = this.#file.data
    if (this.#byId?.of !== of) this.#byId = { of, map: new Map(of.labels.map((l) => [labelId(l), l])) }
    return this.#byId.map
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
      bad: parsed.bad,
    }
  }

  /**
   * Adds every new label and replaces only the changed ones named in `replace` (ids from
   * `labelId`); the file is read again, so a label changed since the preview is never
   * overwritten unasked. One write: all or nothing. A file with bad rows is refused unless the
   * user chose to apply the good rows (`skipBad`) after the preview listed the bad ones
   * (docs/decisions/label-import-bad-rows.md).
   */
  async import(
    text: string,
    network: string,
    replace: readonly string[],
    options: { skipBad?: boolean } = {},
  ): Promise<LabelImportResult> {
    const { rows, bad } = parseLabelsCsv(text, network)
    const first = bad[0]
    if (first && !options.skipBad) {
      const more = bad.length > 1 ? ` (and ${bad.length - 1} more bad row${bad.length > 2 ? 's' : ''})` : ''
      throw new AppError(
        'invalid-input',
        `Nothing was imported: row ${first.row}, ${first.column}: ${first.why}${more}. Apply the good rows or fix the file.`,
        { field: 'text', rows: bad.slice(0, 100).map((b) => ({ row: b.row, message: `${b.column}: ${b.why}` })) },
      )
    }
    const chosen = new Set(replace)
    const at = new Date(this.#now()).toISOString()
    let result: LabelImportResult = { added: 0, replaced: 0, kept: 0 }
    await this.#commit((labels) => {
      const { added, changed } = this.#diff(rows)
      const picked = changed.filter((c) => chosen.has(labelId(c.next)))
      result = { added: added.length, replaced: picked.length, kept: changed.length - picked.length }
      if (result.added + result.replaced === 0) return labels
      const next = new Map(labels)
      for (const r of [...added, ...picked.map((c) => c.next)]) next.set(labelId(r), { ...r, updatedAt: at })
      return next
    }, 'nothing was imported')
    return result
  }

  /**
   * Adds or changes one label. `seen` is the label the user was shown (null: none), and the
   * save happens only while the kept one still equals it: a label changed meanwhile is never
   * overwritten unseen; the error shows what it is now.
   */
  async set(address: Address, network: string, edit: LabelText, seen: LabelText | null): Promise<AddressLabel> {
    if (!edit.label && !edit.note)
      throw new AppError('invalid-input', 'Write a label or a note, or remove the label instead.', { field: 'label' })
    const id = labelId({ address, network })
    const saved: AddressLabel = {
      address,
      network,
      label: edit.label,
      note: edit.note,
      updatedAt: new Date(this.#now()).toISOString(),
    }
    await this.#commit((labels) => {
      checkSeen(labels, id, seen)
      return new Map(labels).set(id, saved)
    }, 'the label was not saved')
    return { ...saved }
  }

  /** Removes one label, on the same terms as `set`: only the label the user was shown. */
  async remove(address: Address, network: string, seen: LabelText | null): Promise<null> {
    const id = labelId({ address, network })
    await this.#commit((labels) => {
      checkSeen(labels, id, seen)
      if (!labels.has(id)) return labels
      const next = new Map(labels)
      next.delete(id)
      return next
    }, 'the label was not removed')
    return null
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

  /**
   * One atomic write of what `change` makes of the labels current when its turn comes; made
   * current only once saved. `outcome` says what a failure left undone.
   */
  async #commit(
    change: (labels: Map<string, AddressLabel>) => Map<string, AddressLabel>,
    outcome: string,
  ): Promise<void> {
    const before = this.#file.data
    try {
      await this.#file.update((file) => {
        const labels = this.#labels
        const next = change(labels)
        if (next === labels) return file
        if (next.size > LABEL_LIMITS.labels)
          throw new AppError(
            'invalid-input',
            `Chainscope keeps at most ${LABEL_LIMITS.labels.toLocaleString('en-US')} address labels; ${outcome}.`,
          )
        return { version: LABELS_VERSION, labels: [...next.values()] }
      })
    } catch (error) {
      if (error instanceof AppError && !(error instanceof DiskWriteError)) throw error
      throw new AppError('internal', `The labels could not be saved (${diskProblem(error)}); ${outcome}.`)
    }
    if (this.#file.data !== before) this.#onChange?.(this.list())
  }
}

/**
 * The save happens only while the kept label still equals the one the user was shown: a label
 * changed meanwhile is never overwritten unseen; the error shows what it is now.
 */
function checkSeen(labels: Map<string, AddressLabel>, id: string, seen: LabelText | null): void {
  const now = labels.get(id) ?? null
  const same = now === null ? seen === null : seen !== null && now.label === seen.label && now.note === seen.note
  if (same) return
  const what = now ? `it is now “${now.label}”${now.note ? ` with the note “${now.note}”` : ''}` : 'it was removed'
  throw new AppError(
    'conflict',
    `This label changed since it was shown (${what}). Nothing was saved: look at it again, then edit it.`,
    { field: 'label' },
  )
}

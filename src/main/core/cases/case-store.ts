import { randomUUID } from 'node:crypto'
import type { ExportFile } from '@shared/bridge/contract'
import {
  CASE_LIMITS,
  emptyGraphState,
  type CaseAddress,
  type CaseFile,
  type GraphState,
} from '@shared/domain/case-file'
import type { Address } from '@shared/domain/address'
import { AppError } from '../util/app-error'
import { diskProblem, DiskWriteError } from '../util/disk-error'
import type { FileFaults } from '../util/versioned-file'
import { CaseFiles } from './case-files'
import { exportCase, parseCaseImport } from './case-io'

export interface CaseStoreOptions {
  /** The files are `<dataDir>/cases/<id>.json`, each with its backup (case-files.ts). */
  dataDir: string
  now?: () => number
  onChange?: (cases: CaseFile[]) => void
  /** A test's faulty disk and clock. */
  faults?: FileFaults
}

/** An address of a case as the bridge hands it over: parsed (lowercase, checked) already. */
export interface AddressRef {
  address: Address
  network: string
}

/**
 * Cases, one file each (case-files.ts): every change is computed from the case as saved, checked
 * against the one schema, written atomically with a backup, and only then made current, so a
 * refused or failed write changes nothing. Changes run one at a time. A case reads nothing from
 * the network: opening one offline shows all it holds, and its addresses open from the cache.
 */
export class CaseStore {
  readonly #files: CaseFiles
  readonly #now: () => number
  readonly #onChange: CaseStoreOptions['onChange']
  #queue: Promise<unknown> = Promise.resolve()
  readonly notice: string | null

  constructor(options: CaseStoreOptions) {
    this.#now = options.now ?? Date.now
    this.#onChange = options.onChange
    this.#files = new CaseFiles({ dataDir: options.dataDir, now: this.#now, faults: options.faults })
    this.notice = this.#files.notice
  }

  list(): CaseFile[] {
    return structuredClone(this.#files.list())
  }

  create(name: string, first?: AddressRef): Promise<CaseFile> {
    const at = this.#iso()
    const c: CaseFile = {
      id: randomUUID(),
      name: name.trim(),
      createdAt: at,
      updatedAt: at,
      addresses: first ? [{ ...ref(first), label: '', note: '', addedAt: at }] : [],
      notes: '',
      graph: emptyGraphState(),
    }
    return this.#commit(async () => {
      this.#assertRoom()
      return this.#files.put(c.id, () => c)
    })
  }

  rename(id: string, name: string): Promise<CaseFile> {
    return this.#change(id, (c) => ({ ...c, name: name.trim() }))
  }

  async delete(id: string): Promise<void> {
    await this.#commit(async () => {
      find(this.#files.list(), id)
      await this.#files.remove(id)
      return null
    })
  }

  addAddress(id: string, a: AddressRef & { label?: string; note?: string }): Promise<CaseFile> {
    return this.#change(id, (c) => {
      const r = ref(a)
      if (c.addresses.some((x) => same(x, r))) throw new AppError('conflict', 'This address is in the case already.')
      if (c.addresses.length >= CASE_LIMITS.addresses)
        throw new AppError('invalid-input', `A case holds at most ${CASE_LIMITS.addresses} addresses.`)
      const entry = { ...r, label: a.label?.trim() ?? '', note: a.note ?? '', addedAt: this.#iso() }
      return { ...c, addresses: [...c.addresses, entry] }
    })
  }

  /** Adds a pasted list in one write, all or nothing (docs/decisions/bulk-address-paste.md). */
  addAddresses(id: string, list: (AddressRef & { label?: string })[]): Promise<CaseFile> {
    return this.#change(id, (c) => {
      const next = [...c.addresses]
      for (const a of list) {
        const r = ref(a)
        if (next.some((x) => same(x, r)))
          throw new AppError('conflict', `${r.address} on ${r.network} is in the case already; nothing was added.`)
        next.push({ ...r, label: a.label?.trim() ?? '', note: '', addedAt: this.#iso() })
      }
      if (next.length > CASE_LIMITS.addresses)
        throw new AppError(
          'invalid-input',
          `A case holds at most ${CASE_LIMITS.addresses} addresses; nothing was added.`,
        )
      return { ...c, addresses: next }
    })
  }

  updateAddress(id: string, a: AddressRef, patch: { label?: string; note?: string }): Promise<CaseFile> {
    return this.#change(id, (c) => {
      const at = c.addresses.findIndex((x) => same(x, a))
      if (at < 0) throw new AppError('not-found', 'This address is not in the case.')
      const next = [...c.addresses]
      next[at] = {
        ...next[at]!,
        ...(patch.label !== undefined ? { label: patch.label.trim() } : {}),
        ...(patch.note !== undefined ? { note: patch.note } : {}),
      }
      return { ...c, addresses: next }
    })
  }

  removeAddress(id: string, a: AddressRef): Promise<CaseFile> {
    return this.#change(id, (c) => ({ ...c, addresses: c.addresses.filter((x) => !same(x, a)) }))
  }

  setNotes(id: string, notes: string): Promise<CaseFile> {
    return this.#change(id, (c) => ({ ...c, notes }))
  }

  setGraph(id: string, graph: GraphState): Promise<CaseFile> {
    return this.#change(id, (c) => ({ ...c, graph: structuredClone(graph) }))
  }

  export(id: string): ExportFile {
    return exportCase(find(this.#files.list(), id))
  }

  /** Adds the case in the file as a new case (a new id), so an import never replaces one. */
  async import(text: string): Promise<CaseFile> {
    const c = parseCaseImport(text)
    const id = randomUUID()
    return this.#commit(async () => {
      this.#assertRoom()
      const taken = new Set(this.#files.list().map((x) => x.name))
      let name = c.name
      for (let n = 2; taken.has(name); n++) name = `${c.name.slice(0, CASE_LIMITS.name - 6)} (${n})`
      return this.#files.put(id, () => ({ ...c, id, name }))
    })
  }

  #change(id: string, f: (c: CaseFile) => CaseFile): Promise<CaseFile> {
    return this.#commit(() =>
      this.#files.put(id, (c) => {
        if (!c) throw new AppError('not-found', 'This case no longer exists.')
        return { ...f(c), updatedAt: this.#iso() }
      }),
    )
  }

  #assertRoom(): void {
    if (this.#files.size >= CASE_LIMITS.cases)
      throw new AppError('invalid-input', `Chainscope keeps at most ${CASE_LIMITS.cases} cases; delete one first.`)
  }

  #iso(): string {
    return new Date(this.#now()).toISOString()
  }

  /** Runs one change after the one before; memory (the files' data) changes only once it is written. */
  #commit<R extends CaseFile | null>(run: () => Promise<R>): Promise<R> {
    const done = this.#queue.then(async () => {
      let result: R
      try {
        result = await run()
      } catch (error) {
        if (error instanceof AppError && !(error instanceof DiskWriteError)) throw error
        throw new AppError('internal', `The case could not be saved (${diskProblem(error)}); nothing was changed.`)
      }
      this.#onChange?.(this.list())
      return result === null ? result : structuredClone(result)
    })
    this.#queue = done.catch(() => undefined)
    return done
  }
}

function find(cases: readonly CaseFile[], id: string): CaseFile {
  const c = cases.find((x) => x.id === id)
  if (!c) throw new AppError('not-found', 'This case no longer exists.')
  return c
}

/** Only the address and network of a ref that may carry more (the bridge's label and note). */
const ref = (a: AddressRef): AddressRef => ({ address: a.address, network: a.network })
const same = (x: Pick<CaseAddress, 'address' | 'network'>, y: AddressRef): boolean =>
  x.address === y.address && x.network === y.network

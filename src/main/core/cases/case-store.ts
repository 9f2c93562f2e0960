import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { ExportFile } from '@shared/bridge/contract'
import {
  CASE_LIMITS,
  CASES_VERSION,
  casesFileSchema,
  emptyGraphState,
  type CaseAddress,
  type CaseFile,
  type GraphState,
} from '@shared/domain/case-file'
import type { Address } from '@shared/domain/address'
import { AppError } from '../util/app-error'
import { diskProblem, DiskWriteError } from '../util/disk-error'
import { VersionedFile, type FileFaults } from '../util/versioned-file'
import { exportCase, parseCaseImport } from './case-io'

type CasesFile = { version: 1; cases: CaseFile[] }

export interface CaseStoreOptions {
  /** The file is `<dataDir>/cases.json`, its backup `cases.json.bak`. */
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
 * Cases, kept like the watchlists (versioned-file.ts): every change is made on a copy, checked
 * against the one schema, written atomically with a backup of the last good file, and only
 * then made current, so a refused or failed write changes nothing. A case reads nothing from
 * the network: opening one offline shows all it holds, and its addresses open from the cache.
 */
export class CaseStore {
  readonly #file: VersionedFile<CasesFile>
  readonly #now: () => number
  readonly #onChange: CaseStoreOptions['onChange']
  readonly notice: string | null

  constructor(options: CaseStoreOptions) {
    this.#now = options.now ?? Date.now
    this.#onChange = options.onChange
    this.#file = new VersionedFile<CasesFile>({
      path: join(options.dataDir, 'cases.json'),
      version: CASES_VERSION,
      label: 'cases',
      migrate: (raw) => casesFileSchema.parse(raw),
      empty: () => ({ version: 1, cases: [] }),
      now: this.#now,
      ...options.faults,
    })
    this.notice = this.#file.load().notice
  }

  list(): CaseFile[] {
    return structuredClone(this.#file.data.cases)
  }

  async create(name: string, first?: AddressRef): Promise<CaseFile> {
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
    await this.#commit((cases) => [...roomFor(cases), c])
    return this.#copy(c.id)
  }

  rename(id: string, name: string): Promise<CaseFile> {
    return this.#change(id, (c) => ({ ...c, name: name.trim() }))
  }

  async delete(id: string): Promise<void> {
    await this.#commit((cases) => {
      find(cases, id)
      return cases.filter((c) => c.id !== id)
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
    return exportCase(find(this.#file.data.cases, id))
  }

  /** Adds the case in the file as a new case (a new id), so an import never replaces one. */
  async import(text: string): Promise<CaseFile> {
    const c = parseCaseImport(text)
    const id = randomUUID()
    await this.#commit((cases) => {
      const taken = new Set(cases.map((x) => x.name))
      let name = c.name
      for (let n = 2; taken.has(name); n++) name = `${c.name.slice(0, CASE_LIMITS.name - 6)} (${n})`
      return [...roomFor(cases), { ...c, id, name }]
    })
    return this.#copy(id)
  }

  #copy(id: string): CaseFile {
    return structuredClone(find(this.#file.data.cases, id))
  }

  async #change(id: string, f: (c: CaseFile) => CaseFile): Promise<CaseFile> {
    await this.#commit((cases) => {
      const next = { ...f(find(cases, id)), updatedAt: this.#iso() }
      return cases.map((c) => (c.id === id ? next : c))
    })
    return this.#copy(id)
  }

  #iso(): string {
    return new Date(this.#now()).toISOString()
  }

  /** The cases as `change` makes them from the current ones, current only once saved. */
  async #commit(change: (cases: CaseFile[]) => CaseFile[]): Promise<void> {
    try {
      await this.#file.update((file) => ({ version: CASES_VERSION, cases: change(file.cases) }))
    } catch (error) {
      if (error instanceof AppError && !(error instanceof DiskWriteError)) throw error
      throw new AppError('internal', `The case could not be saved (${diskProblem(error)}); nothing was changed.`)
    }
    this.#onChange?.(this.list())
  }
}

function find(cases: readonly CaseFile[], id: string): CaseFile {
  const c = cases.find((x) => x.id === id)
  if (!c) throw new AppError('not-found', 'This case no longer exists.')
  return c
}

/** The cases, when there is room for one more. */
function roomFor(cases: CaseFile[]): CaseFile[] {
  if (cases.length >= CASE_LIMITS.cases)
    throw new AppError('invalid-input', `Chainscope keeps at most ${CASE_LIMITS.cases} cases; delete one first.`)
  return cases
}

/** Only the address and network of a ref that may carry more (the bridge's label and note). */
const ref = (a: AddressRef): AddressRef => ({ address: a.address, network: a.network })
const same = (x: Pick<CaseAddress, 'address' | 'network'>, y: AddressRef): boolean =>
  x.address === y.address && x.network === y.network

import { createHash } from 'node:crypto'
import { readdir, readFile, rm, stat } from 'node:fs/promises'
import { basename, dirname, join, sep } from 'node:path'
import { z } from 'zod'
import {
  balanceItemSchema,
  transactionSchema,
  type BalanceItem,
  type Transaction,
  unreadableItemSchema,
  type UnreadableItem,
} from '../../../shared/domain/service-schemas'
import { jsonMayHoldSecret, type Logger } from '../util/logger'
import { writeFileAtomic } from '../util/atomic-file'
import { isDiskError, type DiskReports } from '../util/disk-error'
import { normaliseAddress } from '../../../shared/domain/address'
import { withDefaults } from '../util/options'

export interface BalancesSnapshot {
  fetchedAt: number
  items: BalanceItem[]
  /** Absent in snapshots written before items were read one by one. */
  unreadable?: UnreadableItem[]
}

export interface PageSnapshot {
  fetchedAt: number
  items: Transaction[]
  unreadable?: UnreadableItem[]
  nextCursor: string | null
}

export interface SnapshotEntry {
  path: string
  network: string
  /** Lowercase. */
  address: string
  kind: 'balances' | 'page'
  stamp: number
}

export interface SnapshotStoreOptions {
  /** `<dataDir>/snapshots`. */
  root: string
  /** Total size kept on disk; the least recently written files go first. Default 256 MiB. */
  maxBytes?: number
  /** Transaction pages kept per address; the oldest written go first. Default 200 (10,000 transactions). */
  maxPagesPerAddress?: number
  log?: Logger
  /**
   * Applied to every string written: a service that echoes the API key in a body (an icon
   * URL with `?api_key=`) must not put it in a file. Default: none.
   */
  redact?: { contains(text: string): boolean; redact(text: string): string }
  /** Where a disk that refuses the cache's writes is told. */
  disk?: DiskReports
}

const DISK_WHAT = 'cache of fetched data'

// `unreadable` came later: older snapshots without it have none.
const unreadableList = z.array(unreadableItemSchema).default([])
const balancesFile = z.object({
  version: z.literal(1),
  fetchedAt: z.number(),
  items: z.array(balanceItemSchema),
  unreadable: unreadableList,
})
const pageFile = z.object({
  version: z.literal(1),
  fetchedAt: z.number(),
  items: z.array(transactionSchema),
  unreadable: unreadableList,
  nextCursor: z.string().nullable(),
})

/**
 * The offline snapshots: per profile, network and address, the last balances and every
 * loaded transaction page, each with `fetchedAt`. They are shown (marked) when the service
 * cannot be reached or the quota is gone, and they make old pages free after a restart.
 * A snapshot is a cache: a damaged file is ignored and removed, never an error.
 * Writes go in the background, one at a time, atomically (temp + rename, no fsync: losing
 * the newest snapshot in a power cut costs only a re-fetch). A write is serialised on a later
 * turn of the event loop, after the answer that caused it has gone out, and writes of one file
 * that wait their turn are merged: the newest wins. So a snapshot handed to a write must not
 * change after.
 */
export class SnapshotStore {
  readonly #root: string
  readonly #maxBytes: number
  readonly #maxPages: number
  readonly #log: Logger | undefined
  readonly #redact: SnapshotStoreOptions['redact']
  readonly #disk: DiskReports | undefined
  #chain: Promise<void> = Promise.resolve()
  /** Per file, the write that waits its turn (not yet serialised): a newer write replaces its text. */
  readonly #waiting = new Map<string, { text: () => string; done: Promise<void> }>()
  #index: Map<string, { size: number; mtimeMs: number }> | null = null
  #total = 0
  #lastOrder = 0

  constructor(options: SnapshotStoreOptions) {
    this.#root = options.root
    const o = withDefaults({ maxBytes: 256 * 1024 * 1024, maxPagesPerAddress: 200 }, options)
    this.#maxBytes = o.maxBytes
    this.#maxPages = o.maxPagesPerAddress
    this.#log = options.log
    this.#redact = options.redact
    this.#disk = options.disk
  }

  #dir(profileId: string, network: string, address: string): string {
    return join(this.#root, profileId, network, normaliseAddress(address))
  }

  static pageName(cursor: string | null): string {
    return cursor === null
      ? 'tx-first.json'
      : `tx-${createHash('sha256').update(cursor).digest('hex').slice(0, 24)}.json`
  }

  async readBalances(profileId: string, network: string, address: string): Promise<BalancesSnapshot | null> {
    const data = await this.#read(join(this.#dir(profileId, network, address), 'balances.json'), balancesFile)
    return data ? { fetchedAt: data.fetchedAt, items: data.items, unreadable: data.unreadable } : null
  }

  async readPage(
    profileId: string,
    network: string,
    address: string,
    cursor: string | null,
  ): Promise<PageSnapshot | null> {
    const data = await this.#read(
      join(this.#dir(profileId, network, address), SnapshotStore.pageName(cursor)),
      pageFile,
    )
    return data
      ? { fetchedAt: data.fetchedAt, items: data.items, unreadable: data.unreadable, nextCursor: data.nextCursor }
      : null
  }

  writeBalances(profileId: string, network: string, address: string, snapshot: BalancesSnapshot): Promise<void> {
    const file = join(this.#dir(profileId, network, address), 'balances.json')
    return this.#enqueue(file, () => this.#json({ version: 1, ...snapshot }))
  }

  writePage(
    profileId: string,
    network: string,
    address: string,
    cursor: string | null,
    snapshot: PageSnapshot,
  ): Promise<void> {
    const file = join(this.#dir(profileId, network, address), SnapshotStore.pageName(cursor))
    return this.#enqueue(file, () => this.#json({ version: 1, ...snapshot }))
  }

  /**
   * The snapshot as JSON, with every registered key redacted. The text is checked once
   * (`jsonMayHoldSecret`), as the bridge checks its answers, and only a text that may hold a key
   * is written again string by string and key by key. For a page of 50 transactions (130 KB) that
   * is 0.8-1.1 ms for the host's first page and 0.6 ms after, against 4-6 and 1.0 ms with a
   * replacer on every string and key (3 runs each, Blockscout's fixture items).
   */
  #json(value: unknown): string {
    const text = JSON.stringify(value)
    const r = this.#redact
    if (!r || !jsonMayHoldSecret(text, r)) return text
    return JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'string') return r.contains(v) ? r.redact(v) : v
      // Object keys too: a service can echo the key as a field name (issue 10 item 7).
      if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.keys(v).some((k) => r.contains(k)))
        return v
      const out: Record<string, unknown> = {}
      for (const [k, item] of Object.entries(v))
        Object.defineProperty(out, r.redact(k), { value: item, enumerable: true, writable: true, configurable: true })
      return out
    })
  }

  /**
   * Every snapshot of a profile, for the cached search (issue 12): its file, network, address,
   * kind and a stamp that changes whenever the file is rewritten. Waits for queued writes.
   */
  async catalogue(profileId: string): Promise<SnapshotEntry[]> {
    await this.#chain
    const base = join(this.#root, profileId)
    const out: SnapshotEntry[] = []
    for (const [path, e] of await this.#loadIndex()) {
      if (!path.startsWith(base)) continue
      const [network, address, name, ...rest] = path.slice(base.length + 1).split(/[\\/]/)
      if (network === undefined || address === undefined || name === undefined || rest.length > 0) continue
      const kind = name === 'balances.json' ? 'balances' : name.startsWith('tx-') ? 'page' : null
      if (kind) out.push({ path, network, address, kind, stamp: e.mtimeMs })
    }
    return out
  }

  /** Reads one entry of `catalogue`; null when it vanished or is damaged (then removed). */
  async readEntry(entry: SnapshotEntry): Promise<BalancesSnapshot | PageSnapshot | null> {
    const data =
      entry.kind === 'balances' ? await this.#read(entry.path, balancesFile) : await this.#read(entry.path, pageFile)
    return data
  }

  removeProfile(profileId: string): Promise<void> {
    return this.#serial(async () => {
      const dir = join(this.#root, profileId)
      await rm(dir, { recursive: true, force: true })
      // `dir + sep`: removing "work" must not drop the index entries of "work-2".
      if (this.#index)
        for (const [path, e] of [...this.#index]) if (path.startsWith(dir + sep)) this.#drop(path, e.size)
    })
  }

  /** Resolves when every write queued so far is on disk. */
  flush(): Promise<void> {
    return this.#chain
  }

  get totalBytes(): number {
    return this.#total
  }

  async #read<S extends z.ZodType>(file: string, schema: S): Promise<z.output<S> | null> {
    // The index knows every snapshot on disk: a miss costs no file system call.
    if (!(await this.#loadIndex()).has(file)) return null
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch {
      return null
    }
    try {
      const parsed = schema.safeParse(JSON.parse(text))
      if (parsed.success) return parsed.data
    } catch {
      // fall through: damaged
    }
    this.#log?.warn(`snapshot ${file.slice(this.#root.length)} is damaged; removed`)
    await this.#serial(async () => {
      await rm(file, { force: true })
      const e = this.#index?.get(file)
      if (e) this.#drop(file, e.size)
    })
    return null
  }

  #serial(task: () => Promise<void>): Promise<void> {
    const next = this.#chain.then(task).catch((error: unknown) => {
      this.#log?.warn(`snapshot store: ${error instanceof Error ? error.message : String(error)}`)
      // A full or read-only disk: the user is told once; the app answers from the network.
      if (isDiskError(error))
        this.#disk?.failed(DISK_WHAT, error, 'data is fetched again when it is needed instead of read from the cache.')
    })
    this.#chain = next
    return next
  }

  #enqueue(file: string, text: () => string): Promise<void> {
    const waiting = this.#waiting.get(file)
    if (waiting) {
      waiting.text = text
      return waiting.done
    }
    const entry = { text, done: Promise.resolve() }
    this.#waiting.set(file, entry)
    entry.done = this.#serial(async () => {
      // The next turn of the event loop: the caller's answer is sent before this work starts.
      await new Promise<void>((resolve) => setImmediate(resolve))
      this.#waiting.delete(file)
      const data = entry.text()
      const index = await this.#loadIndex()
      await writeFileAtomic(file, data, { fsync: false })
      this.#disk?.saved(DISK_WHAT)
      const previous = index.get(file)
      if (previous) this.#drop(file, previous.size)
      const size = Buffer.byteLength(data)
      // Strictly increasing, so eviction order is the write order even within one millisecond.
      this.#lastOrder = Math.max(Date.now(), this.#lastOrder + 0.001)
      index.set(file, { size, mtimeMs: this.#lastOrder })
      this.#total += size
      await this.#trimAddress(file)
      await this.#trimTotal()
    })
    return entry.done
  }

  #drop(path: string, size: number): void {
    this.#index?.delete(path)
    this.#total -= size
  }

  async #trimAddress(file: string): Promise<void> {
    const dir = dirname(file)
    const pages = [...(this.#index ?? new Map<string, { size: number; mtimeMs: number }>())].filter(
      ([p]) => dirname(p) === dir && basename(p).startsWith('tx-'),
    )
    if (pages.length <= this.#maxPages) return
    pages.sort((a, b) => a[1].mtimeMs - b[1].mtimeMs)
    for (const [path, e] of pages.slice(0, pages.length - this.#maxPages)) {
      await rm(path, { force: true })
      this.#drop(path, e.size)
    }
  }

  async #trimTotal(): Promise<void> {
    if (this.#total <= this.#maxBytes || !this.#index) return
    const oldest = [...this.#index].sort((a, b) => a[1].mtimeMs - b[1].mtimeMs)
    for (const [path, e] of oldest) {
      if (this.#total <= this.#maxBytes * 0.9) break
      await rm(path, { force: true })
      this.#drop(path, e.size)
    }
  }

  #indexing: Promise<Map<string, { size: number; mtimeMs: number }>> | null = null

  /** One walk of the snapshot folder per run, shared by everyone who needs it first. */
  #loadIndex(): Promise<Map<string, { size: number; mtimeMs: number }>> {
    if (this.#index) return Promise.resolve(this.#index)
    this.#indexing ??= this.#walk()
    return this.#indexing
  }

  async #walk(): Promise<Map<string, { size: number; mtimeMs: number }>> {
    const index = new Map<string, { size: number; mtimeMs: number }>()
    const walk = async (dir: string): Promise<void> => {
      let entries
      try {
        entries = await readdir(dir, { withFileTypes: true })
      } catch {
        return
      }
      for (const entry of entries) {
        const path = join(dir, entry.name)
        if (entry.isDirectory()) await walk(path)
        else if (entry.name.endsWith('.json')) {
          try {
            const s = await stat(path)
            index.set(path, { size: s.size, mtimeMs: s.mtimeMs })
            this.#total += s.size
          } catch {
            // vanished meanwhile
          }
        }
      }
    }
    await walk(this.#root)
    this.#index = index
    return index
  }
}

import { createHash } from 'node:crypto'
import { readFile, rm, stat, utimes } from 'node:fs/promises'
import { join, sep } from 'node:path'
import { z } from 'zod'
import { balanceItemSchema, transactionSchema, unreadableItemSchema } from '@shared/domain/service-schemas'
import type { Logger, KeyScan } from '../util/logger'
import { writeFileAtomic } from '../util/atomic-file'
import { normaliseAddress } from '@shared/domain/address'
import { withDefaults } from '../util/options'
import { errorMessage } from '@shared/guards'
import { diskProblem, isDiskError, type DiskReports } from '../util/disk-error'
import { COMPRESSED, decodeSnapshot, encodeSnapshot, isCompressed, plainName } from './snapshot-codec'
import { SnapshotFiles, type HeldFile } from './snapshot-files'
import { snapshotJson } from './snapshot-json'
import { digestFile, digestPathOf, type PageDigester } from './page-digest-files'
import type { BalancesSnapshot, PageAt, PageSnapshot, SnapshotEntry } from './snapshot-types'

const DISK_WHAT = 'cache of fetched data'
const DISK_EFFECT = 'data is fetched again when it is needed instead of read from the cache.'

export type { BalancesSnapshot, PageAt, PageSnapshot, SnapshotEntry } from './snapshot-types'

export interface SnapshotStoreOptions {
  /** `<dataDir>/snapshots`. */
  root: string
  /** Total size kept on disk; the least recently written files go first. Default 256 MiB. */
  maxBytes?: number
  /**
   * Transaction pages kept per address; the oldest written go first. Default 7,000 (350,000
   * transactions: a week of a full 1,000-a-day quota spent on one address still fits).
   */
  maxPagesPerAddress?: number
  log?: Logger
  /**
   * Applied to every string written: a service that echoes the API key in a body (an icon
   * URL with `?api_key=`) must not put it in a file. Default: none.
   */
  redact?: KeyScan
  /** Where a disk that refuses the cache's writes is told (the app's notices). */
  disk?: DiskReports
  /** Makes the digest kept beside each page written (page-digest-files.ts). Default: none. */
  digester?: PageDigester
}

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
 * Files are brotli-compressed JSON (snapshot-codec.ts): about a tenth of the JSON, so the
 * budget holds a week of a full quota; older uncompressed files are read and rewritten
 * compressed on first read, keeping their place in the eviction order.
 * Writes go in the background, one at a time, atomically (temp + rename, no fsync: losing
 * the newest snapshot in a power cut costs only a re-fetch). A write the disk refuses (full,
 * read-only, no permission) is logged once per cause and dropped: the app keeps answering
 * from what it holds in memory, and the next write tries again. A write is serialised on a later
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
  readonly #digester: PageDigester | undefined
  #chain: Promise<void> = Promise.resolve()
  /** Per file, the write that waits its turn (not yet serialised): a newer write replaces its text and digest. */
  readonly #waiting = new Map<string, { text: () => string; digest?: () => unknown; done: Promise<void> }>()
  /** Keyed by the file's path as on disk (`.json.br`, or `.json` for a file not yet migrated). */
  #index: SnapshotFiles | null = null
  readonly #disk: DiskReports | undefined
  /** Causes already logged: a full disk fails every write, and one line says it. */
  readonly #reported = new Set<string>()

  constructor(options: SnapshotStoreOptions) {
    this.#root = options.root
    const o = withDefaults({ maxBytes: 256 * 1024 * 1024, maxPagesPerAddress: 7000 }, options)
    this.#maxBytes = o.maxBytes
    this.#maxPages = o.maxPagesPerAddress
    this.#log = options.log
    this.#redact = options.redact
    this.#disk = options.disk
    this.#digester = options.digester
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
    return this.#enqueue(file, () => snapshotJson(this.#redact, { version: 1, ...snapshot }))
  }

  writePage(at: PageAt, snapshot: PageSnapshot): Promise<void> {
    const { network, address } = at
    const file = join(this.#dir(at.profileId, network, address), SnapshotStore.pageName(at.cursor))
    const digester = this.#digester
    return this.#enqueue(
      file,
      () => snapshotJson(this.#redact, { version: 1, ...snapshot }),
      digester && (() => digester.of(snapshot.items, normaliseAddress(address))),
    )
  }

  /**
   * The digest kept beside a page of `catalogue`, checked by `schema`; null when there is none,
   * or it was made from another version of the page (rewritten since), or it is damaged (then
   * removed).
   */
  async readDigest<S extends z.ZodType>(entry: SnapshotEntry, schema: S): Promise<z.output<S> | null> {
    const path = digestPathOf(plainName(entry.path))
    const saved = await this.#read(path, digestFile)
    if (!saved || saved.page.stamp !== entry.stamp || saved.page.size !== entry.size) return null
    const data = schema.safeParse(saved.data)
    if (data.success) return data.data
    // Made by a build whose digests held something else: made again from the page.
    this.#log?.warn(`snapshot digest ${path.slice(this.#root.length)} is not what its reader expects; removed`)
    await this.#serial(async () => this.#remove(path + COMPRESSED, await this.#loadIndex()))
    return null
  }

  /**
   * Keeps a digest beside a page written without one (by a build that made none), unless the
   * page changed or went meanwhile. In the background, like every write: `digest` is made then.
   */
  writeDigest(entry: SnapshotEntry, digest: () => unknown): Promise<void> {
    return this.#serial(async () => {
      await new Promise<void>((resolve) => setImmediate(resolve))
      const held = this.#index?.get(entry.path)
      if (held?.stamp === entry.stamp && held.size === entry.size)
        await this.#putDigest(plainName(entry.path), held, this.#made(digest))
    })
  }

  /**
   * Every snapshot of a profile, for the cached search: its file, network, address,
   * kind and a stamp that changes whenever the file is rewritten. Waits for queued writes.
   */
  async catalogue(profileId: string): Promise<SnapshotEntry[]> {
    await this.#chain
    const base = join(this.#root, profileId)
    const out: SnapshotEntry[] = []
    for (const [path, e] of (await this.#loadIndex()).entries()) {
      if (!path.startsWith(base + sep)) continue
      const [network, address, name, ...rest] = path.slice(base.length + 1).split(/[\\/]/)
      if (network === undefined || address === undefined || name === undefined || rest.length > 0) continue
      const plain = plainName(name)
      const kind = plain === 'balances.json' ? 'balances' : plain.startsWith('tx-') ? 'page' : null
      if (kind) out.push({ path, network, address, kind, stamp: e.stamp, size: e.size })
    }
    return out
  }

  /**
   * Reads one entry of `catalogue`; null when it vanished or is damaged (then removed). An
   * entry of an uncompressed file migrated since is read from its compressed successor.
   */
  async readEntry(entry: SnapshotEntry): Promise<BalancesSnapshot | PageSnapshot | null> {
    const path = plainName(entry.path)
    return entry.kind === 'balances' ? await this.#read(path, balancesFile) : await this.#read(path, pageFile)
  }

  removeProfile(profileId: string): Promise<void> {
    return this.#serial(async () => {
      const dir = join(this.#root, profileId)
      await rm(dir, { recursive: true, force: true })
      this.#index?.dropUnder(dir)
    })
  }

  /** Resolves when every write queued so far is on disk. */
  flush(): Promise<void> {
    return this.#chain
  }

  get totalBytes(): number {
    return this.#index?.total ?? 0
  }

  /** `plain`: the file's path without the compression suffix; the compressed file wins. */
  async #read<S extends z.ZodType>(plain: string, schema: S): Promise<z.output<S> | null> {
    // The index knows every snapshot on disk: a miss costs no file system call.
    const index = await this.#loadIndex()
    const file = index.has(plain + COMPRESSED) ? plain + COMPRESSED : index.has(plain) ? plain : null
    if (file === null) return null
    let bytes: Buffer
    try {
      bytes = await readFile(file)
    } catch {
      return null
    }
    try {
      const text = await decodeSnapshot(file, bytes)
      const parsed = schema.safeParse(JSON.parse(text))
      if (parsed.success) {
        if (!isCompressed(file)) this.#migrate(file, text)
        return parsed.data
      }
    } catch {
      // fall through: damaged
    }
    this.#log?.warn(`snapshot ${file.slice(this.#root.length)} is damaged; removed`)
    await this.#serial(async () => this.#remove(file, await this.#loadIndex()))
    return null
  }

  /**
   * Rewrites an uncompressed file compressed, keeping its place in the eviction order (its
   * mtime), unless a newer write of it is waiting or landed meanwhile.
   */
  #migrate(legacy: string, text: string): void {
    if (this.#waiting.has(legacy)) return
    void this.#serial(async () => {
      const old = this.#index?.get(legacy)
      if (!old || this.#index?.has(legacy + COMPRESSED) || this.#waiting.has(legacy)) return
      await this.#put(legacy, await encodeSnapshot(text), old.order)
    })
  }

  /** A digest its maker could not make is left out: the page is kept, and its reader reads the page instead. */
  #made(digest: () => unknown): unknown {
    try {
      return digest()
    } catch (error) {
      this.#log?.warn(`snapshot digest not made: ${errorMessage(error)}`)
      return undefined
    }
  }

  async #putDigest(pagePlain: string, page: HeldFile, data: unknown): Promise<void> {
    if (data === undefined) return
    const text = snapshotJson(this.#redact, { version: 1, page: { stamp: page.stamp, size: page.size }, data })
    await this.#put(digestPathOf(pagePlain), await encodeSnapshot(text))
  }

  /** Removes a file, and a page's digest with it. */
  async #remove(path: string, index: SnapshotFiles): Promise<void> {
    await rm(path, { force: true })
    index.drop(path)
    await this.#removeDigest(plainName(path), index)
  }

  async #removeDigest(pagePlain: string, index: SnapshotFiles): Promise<void> {
    const file = digestPathOf(pagePlain) + COMPRESSED
    if (!index.has(file)) return
    await rm(file, { force: true })
    index.drop(file)
  }

  /** Writes `bytes` as `plain`'s compressed file and drops its uncompressed predecessor. */
  async #put(plain: string, bytes: Buffer, keepOrder?: number): Promise<void> {
    const index = await this.#loadIndex()
    const file = plain + COMPRESSED
    await writeFileAtomic(file, bytes, { fsync: false })
    this.#disk?.saved(DISK_WHAT)
    const order = keepOrder ?? index.nextOrder()
    if (keepOrder !== undefined) await utimes(file, new Date(), new Date(keepOrder))
    const { mtimeMs } = await stat(file)
    if (index.has(plain)) {
      await rm(plain, { force: true })
      index.drop(plain)
    }
    index.set(file, { size: bytes.length, order, stamp: mtimeMs })
  }

  #serial(task: () => Promise<void>): Promise<void> {
    const next = this.#chain.then(task).catch((error: unknown) => this.#report(error))
    this.#chain = next
    return next
  }

  /**
   * Once per cause: a full or read-only disk fails every write. The caller's answer already
   * went out; what is not on disk stays in main's memory caches, and the user is told once
   * (util/disk-error.ts) while the disk refuses.
   */
  #report(error: unknown): void {
    if (isDiskError(error)) this.#disk?.failed(DISK_WHAT, error, DISK_EFFECT)
    const why = isDiskError(error) ? diskProblem(error) : errorMessage(error)
    if (this.#reported.has(why)) return
    this.#reported.add(why)
    this.#log?.warn(
      `snapshot store: ${why}; snapshots are not saved until it is fixed (answers still come from memory); this is said once`,
    )
  }

  /** `digest`: the page's digest, made and written after the page (it records the page's version). */
  #enqueue(file: string, text: () => string, digest?: () => unknown): Promise<void> {
    const waiting = this.#waiting.get(file)
    if (waiting) {
      waiting.text = text
      waiting.digest = digest
      return waiting.done
    }
    const entry = { text, digest, done: Promise.resolve() }
    this.#waiting.set(file, entry)
    entry.done = this.#serial(async () => {
      // The next turn of the event loop: the caller's answer is sent before this work starts.
      await new Promise<void>((resolve) => setImmediate(resolve))
      this.#waiting.delete(file)
      const index = await this.#loadIndex()
      // A digest stands only beside the version of the page it was made from: the old one goes
      // before the page is rewritten (so a crash or a failed write between leaves none), since the
      // version check (stamp and size) alone is not enough where file times are coarse (1 s on
      // HFS+, 2 s on FAT). The new one, when made, follows the page.
      await this.#removeDigest(file, index)
      await this.#put(file, await encodeSnapshot(entry.text()))
      const page = index.get(file + COMPRESSED)
      const digest = entry.digest && page ? this.#made(entry.digest) : undefined
      if (page && digest !== undefined) await this.#putDigest(file, page, digest)
      // The address's own cap first; the total is then what is left.
      for (const beyond of [() => index.pagesBeyond(file, this.#maxPages), () => index.beyondBudget(this.#maxBytes)])
        for (const path of beyond()) await this.#remove(path, index)
    })
    return entry.done
  }

  #indexing: Promise<SnapshotFiles> | null = null

  /** One walk of the snapshot folder per run, shared by everyone who needs it first. */
  #loadIndex(): Promise<SnapshotFiles> {
    if (this.#index) return Promise.resolve(this.#index)
    this.#indexing ??= SnapshotFiles.walk(this.#root).then((files) => (this.#index = files))
    return this.#indexing
  }
}

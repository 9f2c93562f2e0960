import { readdir, rm, stat } from 'node:fs/promises'
import { dirname, join, sep } from 'node:path'
import { isAbandonedTemp } from '../util/atomic-file'
import { COMPRESSED, isCompressed, isSnapshotFile } from './snapshot-codec'

export interface HeldFile {
  size: number
  /** Eviction order: the time it was written, strictly increasing within a run. */
  order: number
  /** The file's mtime: the same after a restart, so a saved search index can trust it. */
  stamp: number
}

/**
 * What the snapshot folder holds, kept in memory after one walk per run: each file's size,
 * eviction order and stamp, and the total. It says which files go when a budget is passed;
 * the store removes them.
 */
export class SnapshotFiles {
  readonly #files = new Map<string, HeldFile>()
  #total = 0
  #lastOrder = 0

  get total(): number {
    return this.#total
  }

  get(path: string): HeldFile | undefined {
    return this.#files.get(path)
  }

  has(path: string): boolean {
    return this.#files.has(path)
  }

  entries(): IterableIterator<[string, HeldFile]> {
    return this.#files.entries()
  }

  /** The order of a file written now: strictly increasing, so the write order even within one millisecond. */
  nextOrder(): number {
    this.#lastOrder = Math.max(Date.now(), this.#lastOrder + 0.001)
    return this.#lastOrder
  }

  set(path: string, held: HeldFile): void {
    this.drop(path)
    this.#files.set(path, held)
    this.#total += held.size
  }

  drop(path: string): void {
    const held = this.#files.get(path)
    if (!held) return
    this.#files.delete(path)
    this.#total -= held.size
  }

  /** Forgets every file under `dir` (`dir + sep`: "work" must not take "work-2" along). */
  dropUnder(dir: string): void {
    for (const path of [...this.#files.keys()]) if (path.startsWith(dir + sep)) this.drop(path)
  }

  /** The transaction pages of `file`'s folder beyond `max`, the least recently written first. */
  pagesBeyond(file: string, max: number): string[] {
    // A page of that folder, not a digest (in its digests/ subfolder): one prefix test per file.
    const prefix = join(dirname(file), 'tx-')
    const pages = [...this.#files].filter(([p]) => p.startsWith(prefix))
    if (pages.length <= max) return []
    pages.sort((a, b) => a[1].order - b[1].order)
    return pages.slice(0, pages.length - max).map(([p]) => p)
  }

  /** Past `max` bytes: the least recently written files whose removal brings the total to 90% of it. */
  beyondBudget(max: number): string[] {
    if (this.#total <= max) return []
    const out: string[] = []
    let total = this.#total
    for (const [path, e] of [...this.#files].sort((a, b) => a[1].order - b[1].order)) {
      if (total <= max * 0.9) break
      out.push(path)
      total -= e.size
    }
    return out
  }

  /**
   * Every snapshot file under `root`; a file left in both forms keeps its compressed one, and
   * the temp files of writers killed mid-write are removed.
   */
  static async walk(root: string): Promise<SnapshotFiles> {
    const files = new SnapshotFiles()
    const walk = async (dir: string): Promise<void> => {
      let entries
      try {
        entries = await readdir(dir, { withFileTypes: true })
      } catch {
        return
      }
      // A folder's files are looked at together (thousands of pages: one round of the
      // thread pool, not one after another), and listed in name order.
      const paths = entries.filter((e) => !e.isDirectory() && isSnapshotFile(e.name)).map((e) => join(dir, e.name))
      const stats = await Promise.all(paths.map((path) => stat(path).catch(() => null)))
      for (const [i, s] of stats.entries())
        // null: vanished meanwhile
        if (s) files.set(paths[i]!, { size: s.size, order: s.mtimeMs, stamp: s.mtimeMs })
      for (const entry of entries)
        if (entry.isDirectory()) await walk(join(dir, entry.name))
        else if (isAbandonedTemp(entry.name)) await rm(join(dir, entry.name), { force: true }).catch(() => undefined)
    }
    await walk(root)
    // Both forms of one file: the process stopped between writing the compressed one and
    // removing the old, so the compressed one is the newer.
    for (const [path] of [...files.entries()])
      if (!isCompressed(path) && files.has(path + COMPRESSED)) {
        await rm(path, { force: true }).catch(() => undefined)
        files.drop(path)
      }
    return files
  }
}

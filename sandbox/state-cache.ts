import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The seeded-chain cache: per network, anvil's state dump, the indexer's snapshot and a
 * manifest, in `<state-dir>/<chain id>-<key>/`. The key hashes everything that shapes the
 * chain (the full seed plan, contract artifacts, anvil version, format versions), so a change
 * anywhere reseeds instead of serving a stale chain. Entries are written to a temporary folder
 * and renamed, so a crash mid-write never leaves a half entry; a lock folder keeps concurrent
 * sandboxes (parallel test files) from seeding the same entry twice.
 */

export interface CacheEntry {
  dir: string
  anvilState: string
  index: string
  manifest: string
}

export function cacheKey(parts: unknown): string {
  const text = JSON.stringify(parts, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}

export function cacheEntry(stateDir: string, chainId: number, key: string): CacheEntry {
  const dir = join(stateDir, `${chainId}-${key}`)
  return { dir, ...entryFiles(dir) }
}

/** The three files of an entry (also of a live-state save, live-state.ts) in `dir`. */
export function entryFiles(dir: string): Omit<CacheEntry, 'dir'> {
  return {
    anvilState: join(dir, 'anvil-state.json'),
    index: join(dir, 'index.json'),
    manifest: join(dir, 'manifest.json'),
  }
}

export function isComplete(entry: CacheEntry): boolean {
  return existsSync(entry.anvilState) && existsSync(entry.index) && existsSync(entry.manifest)
}

/** Writes the entry's files into a temporary folder, then renames it into place. */
export function writeEntry(
  entry: CacheEntry,
  files: { anvilState: string | Buffer; index: string | Buffer; manifest: string },
): void {
  const tmp = `${entry.dir}.tmp-${process.pid}`
  rmSync(tmp, { recursive: true, force: true })
  mkdirSync(tmp, { recursive: true })
  writeFileSync(join(tmp, 'anvil-state.json'), files.anvilState)
  writeFileSync(join(tmp, 'index.json'), files.index)
  writeFileSync(join(tmp, 'manifest.json'), files.manifest)
  rmSync(entry.dir, { recursive: true, force: true })
  renameSync(tmp, entry.dir)
}

/**
 * Keeps the `keep` most recent entries of a chain (e.g. the default seed and a small test seed
 * used side by side must not evict each other on every start) and removes temporary folders
 * left by writers that died.
 */
export function pruneOtherEntries(stateDir: string, chainId: number, current: string, keep = 2): void {
  const names = readdirSync(stateDir)
  for (const name of names) {
    const tmp = /\.tmp-(\d+)$/.exec(name)
    if (tmp && name.startsWith(`${chainId}-`) && !alive(Number(tmp[1])))
      rmSync(join(stateDir, name), { recursive: true, force: true })
  }
  const entries = names
    .filter((n) => n.startsWith(`${chainId}-`) && /^\d+-[0-9a-f]{16}$/.test(n) && n !== `${chainId}-${current}`)
    .map((n) => ({ n, mtime: statSync(join(stateDir, n)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime)
  for (const { n } of entries.slice(Math.max(0, keep - 1))) rmSync(join(stateDir, n), { recursive: true, force: true })
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs
  } catch {
    return 0
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Runs `fn` holding the entry's lock. While another live process holds it, waits (calling
 * `onWait` once) and re-checks `ready`: when the other process finished the entry, returns
 * null without running `fn`. A lock left by a dead process is taken over.
 */
export async function withEntryLock<T>(
  entry: CacheEntry,
  ready: () => boolean,
  fn: () => Promise<T>,
  onWait: () => void,
  timeoutMs = 15 * 60_000,
): Promise<T | null> {
  const lock = `${entry.dir}.lock`
  const owner = join(lock, 'pid')
  const deadline = Date.now() + timeoutMs
  let waited = false
  for (;;) {
    if (ready()) return null
    try {
      mkdirSync(lock, { recursive: false })
      writeFileSync(owner, String(process.pid))
      try {
        return await fn()
      } finally {
        rmSync(lock, { recursive: true, force: true })
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    let pid = NaN
    try {
      pid = Number(readFileSync(owner, 'utf8'))
    } catch {
      // The owner has not written its pid yet (or just removed the lock).
    }
    const orphaned = Number.isNaN(pid) && ageMs(lock) > 60_000
    if (orphaned || (Number.isInteger(pid) && pid > 0 && !alive(pid))) {
      rmSync(lock, { recursive: true, force: true })
      continue
    }
    if (!waited) {
      waited = true
      onWait()
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock} (held by pid ${pid})`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

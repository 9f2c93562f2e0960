import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import * as promises from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

let counter = 0
const tempName = (path: string): string => join(dirname(path), `.${basename(path)}.${process.pid}.${++counter}.tmp`)

/**
 * Whether `name` is the temp file of a writer that died mid-write (`tempName`'s pattern with a
 * process id that no longer runs): nothing will rename it, so it may be removed.
 */
export function isAbandonedTemp(name: string): boolean {
  const m = /^\..+\.(\d+)\.\d+\.tmp$/.exec(name)
  if (!m) return false
  const pid = Number(m[1])
  if (pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code !== 'EPERM'
  }
}

/**
 * Replaces `path` so that a reader (or a restart after a crash or SIGKILL at any instant)
 * sees either the old or the new content, never a mix: write a temp file in the same folder,
 * fsync it, rename it over the target, then fsync the folder so the rename itself is durable.
 */
export function writeFileAtomicSync(path: string, data: string, options: { fsync?: boolean } = {}): void {
  const fsync = options.fsync ?? true
  mkdirSync(dirname(path), { recursive: true })
  const tmp = tempName(path)
  try {
    const fd = openSync(tmp, 'w', 0o600)
    try {
      writeSync(fd, data)
      if (fsync) fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(tmp, path)
  } catch (error) {
    rmSync(tmp, { force: true })
    throw error
  }
  if (fsync) syncDirSync(dirname(path))
}

/** The file calls an asynchronous atomic write makes: node:fs/promises, or a test's faulty disk. */
export type WriteFs = Pick<typeof import('node:fs/promises'), 'mkdir' | 'open' | 'rename' | 'rm'>

export interface AtomicWriteOptions {
  fsync?: boolean
  fs?: WriteFs
  /** Once aborted, the temp file is never renamed into place: a write given up stays undone. */
  signal?: AbortSignal
}

/**
 * `writeFileAtomicSync` without blocking the event loop: a disk that hangs holds this write's
 * promise, never every other call. Aborted before its rename, it leaves the file as it was.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const fsync = options.fsync ?? true
  const fs = options.fs ?? promises
  await fs.mkdir(dirname(path), { recursive: true })
  const tmp = tempName(path)
  try {
    const handle = await fs.open(tmp, 'w', 0o600)
    try {
      await handle.writeFile(data)
      if (fsync) await handle.sync()
    } finally {
      await handle.close()
    }
    options.signal?.throwIfAborted()
    await fs.rename(tmp, path)
  } catch (error) {
    await fs.rm(tmp, { force: true })
    throw error
  }
  if (fsync) await syncDir(fs, dirname(path))
}

async function syncDir(fs: WriteFs, dir: string): Promise<void> {
  // As syncDirSync: best effort where a folder cannot be opened for fsync.
  try {
    const handle = await fs.open(dir, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    /* best effort */
  }
}

function syncDirSync(dir: string): void {
  // Not every platform lets a folder be opened for fsync (Windows); the rename is then as
  // durable as that platform makes it.
  try {
    const fd = openSync(dir, 'r')
    try {
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
  } catch {
    /* best effort */
  }
}

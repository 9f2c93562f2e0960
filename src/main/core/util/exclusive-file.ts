import { createHash, randomBytes } from 'node:crypto'
import { closeSync, fstatSync, linkSync, openSync, readSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { errorCode } from '@shared/guards'

/**
 * Files that only one process may create, read back under a name for what they are (see
 * docs/decisions/data-lock-takeover.md). A file is written whole under a unique temporary name
 * and hard-linked into place: `link` fails if the name is taken, so no one ever sees it half
 * written. Where the file system has no hard links (FAT, exFAT, some network shares) it is
 * created in place with O_EXCL and written, and may be seen empty for that moment.
 */

/** `link` answers these where the file system has no hard links. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EINVAL'])

/** A lock-sized file: anything longer is not one of ours and reads as damaged. */
const MAX_BYTES = 4096

/** The prefix of the temporary names, `<path>.tmp-<pid>-<random>`, so the leftovers of a dead process can be found. */
export const TEMP_MARK = '.tmp-'

/** Creates `path` holding `text` if nothing is there; false if something is. Disk errors are thrown. */
export function createExclusive(path: string, text: string): boolean {
  const temp = `${path}${TEMP_MARK}${process.pid}-${randomBytes(6).toString('hex')}`
  try {
    writeFileSync(temp, text, { flag: 'wx', mode: 0o600 })
    linkSync(temp, path)
    return true
  } catch (error) {
    const code = errorCode(error)
    if (code === 'EEXIST') return false
    if (code === undefined || !NO_HARD_LINKS.has(code)) throw error
  } finally {
    rmSync(temp, { force: true })
  }
  return createInPlace(path, text)
}

function createInPlace(path: string, text: string): boolean {
  let fd: number
  try {
    fd = openSync(path, 'wx', 0o600)
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false
    throw error
  }
  try {
    writeSync(fd, text)
  } catch (error) {
    // Created but not written (a full disk): not left behind as someone's file.
    closeSync(fd)
    rmSync(path, { force: true })
    throw error
  }
  closeSync(fd)
  return true
}

/** One incarnation of a file: `key` differs for every file created under the name, even with the same text. */
export interface Found {
  key: string
  text: string
}

/** The file at `path` and its key, from one open (the text and the key are of the same file); null if there is none. */
export function readFound(path: string): Found | null {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null
    throw error
  }
  try {
    const stat = fstatSync(fd)
    const buffer = Buffer.alloc(MAX_BYTES + 1)
    const length = readSync(fd, buffer, 0, buffer.length, 0)
    const text = length > MAX_BYTES ? '' : buffer.subarray(0, length).toString('utf8')
    const key = createHash('sha256')
      .update(`${stat.ino}:${stat.size}:${stat.mtimeMs}\n`)
      .update(buffer.subarray(0, length))
      .digest('hex')
      .slice(0, 32)
    return { key, text }
  } finally {
    closeSync(fd)
  }
}

/** Sleeps the thread: a start waits for another start's takeover without a timer (the lock is taken synchronously). */
export function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

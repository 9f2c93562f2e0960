import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { AppError } from './app-error'
import { diskProblem, isDiskError } from './disk-error'
import { errorCode } from '@shared/guards'

/**
 * One process owns a data folder: two hosts on one folder would double the
 * quota (each counts alone) and lose writes (every store is last writer wins). The owner
 * holds `<dataDir>/chainscope.lock` with its pid; a second start reads it and refuses,
 * naming the holder. A lock whose process is gone (a crash, a kill -9) is stale and taken
 * over. A live process that reused the pid counts as a holder: refusing is the safe side.
 */
export interface DataLock {
  readonly path: string
  release(): void
}

const lockSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string().max(40),
  since: z.string().max(40),
  machine: z.string().max(255),
})
type LockInfo = z.infer<typeof lockSchema>

export const LOCK_FILE = 'chainscope.lock'

export function acquireDataLock(dataDir: string, host: string, pid = process.pid): DataLock {
  // A folder the disk will not let us write (full, read-only, a file in the way) is refused in
  // plain words: starting without the lock would let a second host count the same quota.
  const unusable = (error: unknown): AppError =>
    new AppError(
      'internal',
      `Chainscope cannot use the data folder ${dataDir}: ${diskProblem(error)}. Free some space, fix the folder's permissions, or start with another data folder (--data-dir).`,
      { field: 'dataDir' },
    )
  try {
    mkdirSync(dataDir, { recursive: true })
  } catch (error) {
    throw unusable(error)
  }
  const path = join(dataDir, LOCK_FILE)
  const mine: LockInfo = {
    pid,
    host,
    since: new Date().toISOString(),
    machine: hostname(),
  }
  // Two rounds: a stale lock is removed once, then the exclusive create must win.
  for (let round = 0; round < 2; round++) {
    try {
      const fd = openSync(path, 'wx', 0o600)
      try {
        writeSync(fd, JSON.stringify(mine))
      } catch (error) {
        // Created but not written (a full disk): not left behind as someone's lock.
        closeSync(fd)
        rmSync(path, { force: true })
        throw unusable(error)
      }
      closeSync(fd)
      let released = false
      return {
        path,
        release: () => {
          if (released) return
          released = true
          // Only our own lock: never one a later owner took over.
          if (readHolder(path)?.pid === pid) rmSync(path, { force: true })
        },
      }
    } catch (error) {
      if (error instanceof AppError) throw error
      if (errorCode(error) !== 'EEXIST') throw isDiskError(error) ? unusable(error) : error
    }
    const holder = readHolder(path)
    const otherMachine = holder !== null && holder.machine !== hostname()
    if (holder && holder.pid !== pid && (otherMachine || alive(holder.pid))) {
      throw new AppError(
        'conflict',
        `The data folder ${dataDir} is in use by another Chainscope (${holder.host === 'electron' ? 'the desktop app' : 'a web host'}, process ${holder.pid}${otherMachine ? ` on ${holder.machine}` : ''}, since ${holder.since}). Close it first, or start this one with another data folder (--data-dir).${otherMachine ? ` If Chainscope no longer runs there, delete ${path}.` : ''}`,
        { field: 'dataDir' },
      )
    }
    // Stale (its process is gone, the file is damaged, or it is this process's own): take it over.
    rmSync(path, { force: true })
  }
  throw new AppError(
    'conflict',
    `The data folder ${dataDir} could not be locked (another Chainscope is starting at the same moment); try again.`,
    { field: 'dataDir' },
  )
}

function readHolder(path: string): LockInfo | null {
  try {
    const parsed = lockSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, owned by another user.
    return errorCode(error) === 'EPERM'
  }
}

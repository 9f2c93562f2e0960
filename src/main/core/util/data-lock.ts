import { randomUUID } from 'node:crypto'
import { mkdirSync, rmSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { AppError } from './app-error'
import { diskProblem, isDiskError } from './disk-error'
import { createExclusive, pause, readFound, type Found } from './exclusive-file'
import { sweepLeftovers, takeOverStale, type Verdict } from './lock-takeover'
import { errorCode } from '@shared/guards'

/**
 * One process owns a data folder: two hosts on one folder would double the
 * quota (each counts alone) and lose writes (every store is last writer wins). The owner
 * holds `<dataDir>/chainscope.lock` with its pid; a second start reads it and refuses,
 * naming the holder. A lock whose process is gone (a crash, a kill -9) is stale and taken
 * over, atomically: two starts over one stale lock never both own the folder
 * (lock-takeover.ts; docs/decisions/data-lock-takeover.md). A live process that reused the
 * pid counts as a holder: refusing is the safe side.
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
  /** Unique to each lock taken; absent from a lock an earlier version wrote. */
  id: z.string().max(64).optional(),
})
type LockInfo = z.infer<typeof lockSchema>

export const LOCK_FILE = 'chainscope.lock'

/** Looks at the lock while another start is mid-takeover: ROUNDS pauses of PAUSE_MS at most (2 s). */
const ROUNDS = 80
const PAUSE_MS = 25
/** A lock that does not parse may be one being written (no hard links): stale once unchanged this many rounds (0.5 s). */
const DAMAGED_ROUNDS = 20

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
  const mine: LockInfo = { pid, host, since: new Date().toISOString(), machine: hostname(), id: randomUUID() }
  const text = JSON.stringify(mine)
  const judge = holderJudge(pid)
  // The token of a takeover waited for: named in the refusal should it never end (a pid reused).
  let waitedOn: string | null = null
  try {
    for (let round = 0; round < ROUNDS; round++) {
      judge.round = round
      if (createExclusive(path, text)) {
        sweepLeftovers(path, alive)
        return held(path, mine)
      }
      const found = readFound(path)
      // Removed between the two looks: create again at once.
      if (found === null) continue
      const verdict = judge.of(found)
      if (verdict === 'live') throw inUse({ dataDir, path, holder: parseHolder(found.text)! })
      // Stale: taken over, then created again at once; a takeover already under way is waited for.
      if (verdict === 'stale') {
        waitedOn = takeOverStale({ path, key: found.key, text, judge: judge.of })
        if (waitedOn === null) continue
      }
      pause(PAUSE_MS)
    }
  } catch (error) {
    if (error instanceof AppError || !isDiskError(error)) throw error
    throw unusable(error)
  }
  throw new AppError(
    'conflict',
    `The data folder ${dataDir} could not be locked (another Chainscope is starting at the same moment); try again.${waitedOn ? ` If none is starting, delete ${waitedOn}.` : ''}`,
    { field: 'dataDir' },
  )
}

function held(path: string, mine: LockInfo): DataLock {
  let released = false
  return {
    path,
    release: () => {
      if (released) return
      released = true
      // Only our own lock: never one a later owner took over.
      if (readHolder(path)?.id === mine.id) rmSync(path, { force: true })
    },
  }
}

/**
 * Whether a lock's (or a takeover token's) holder is alive. One on another machine cannot be
 * checked and counts as alive. This process's own pid is stale (a lock it did not release).
 * A file that does not parse is waited for until it has stayed the same DAMAGED_ROUNDS rounds.
 */
function holderJudge(pid: number): { round: number; of: (found: Found) => Verdict } {
  const damagedSince = new Map<string, number>()
  const judge = {
    round: 0,
    of: (found: Found): Verdict => {
      const holder = parseHolder(found.text)
      if (!holder) {
        const since = damagedSince.get(found.key) ?? judge.round
        damagedSince.set(found.key, since)
        return judge.round - since >= DAMAGED_ROUNDS ? 'stale' : 'wait'
      }
      if (holder.machine !== hostname()) return 'live'
      if (holder.pid === pid) return 'stale'
      return alive(holder.pid) ? 'live' : 'stale'
    },
  }
  return judge
}

function inUse(options: { dataDir: string; path: string; holder: LockInfo }): AppError {
  const { dataDir, path, holder } = options
  const otherMachine = holder.machine !== hostname()
  return new AppError(
    'conflict',
    `The data folder ${dataDir} is in use by another Chainscope (${holder.host === 'electron' ? 'the desktop app' : 'a web host'}, process ${holder.pid}${otherMachine ? ` on ${holder.machine}` : ''}, since ${holder.since}). Close it first, or start this one with another data folder (--data-dir).${otherMachine ? ` If Chainscope no longer runs there, delete ${path}.` : ''}`,
    { field: 'dataDir' },
  )
}

function parseHolder(text: string): LockInfo | null {
  try {
    const parsed = lockSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

function readHolder(path: string): LockInfo | null {
  try {
    const found = readFound(path)
    return found && parseHolder(found.text)
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

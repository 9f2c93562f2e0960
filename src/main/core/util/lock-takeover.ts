import { readdirSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { createExclusive, readFound, TEMP_MARK, type Found } from './exclusive-file'

/**
 * Taking over a stale lock file without ever removing a live one (issue 43; see
 * docs/decisions/data-lock-takeover.md). Removing a file is not conditional, so two starts that
 * both judged one lock stale could each remove it, and the second would remove the lock the
 * first had just made. Here the removal of a lock is guarded by a token named for that lock's
 * key (one incarnation of the file): `<lock>.takeover-<key>-<n>`, made exclusively. Its holder
 * checks that the key is still the one at the lock's name, removes it and drops the token; a
 * lock's key never comes back, so a token of a gone key guards nothing. A taker that died
 * holding a token leaves it behind: the next one judges its holder like a lock's and, when it
 * is dead, uses the next generation n.
 */

/** What a lock or token file says of its holder: alive (refuse or wait), dead, or not yet known. */
export type Verdict = 'live' | 'stale' | 'wait'

const TOKEN_MARK = '.takeover-'
/** Tries per takeover: a generation per crashed taker, plus re-tries when a token goes between two looks. */
const MAX_TRIES = 32

export interface TakeOver {
  /** The lock file's path. */
  path: string
  /** The key of the stale lock read there. */
  key: string
  /** What this process writes into a token (who is taking over). */
  text: string
  /** Whether a token's holder is alive, judged like a lock's. */
  judge(found: Found): Verdict
}

/**
 * Removes the stale lock `key` at `path` unless another start is removing it. Null when the
 * name is clear of it (removed here, or already gone): the caller creates its own lock next,
 * exclusively, and so may lose to a third start. Else the token of the taker at work.
 */
export function takeOverStale(options: TakeOver): string | null {
  const { path, key, text } = options
  let token = ''
  for (let generation = 0, tries = 0; tries < MAX_TRIES; tries++) {
    token = `${path}${TOKEN_MARK}${key}-${generation}`
    if (createExclusive(token, text)) {
      try {
        // Only the token's holder removes this key's file: checked and removed without a rival.
        if (readFound(path)?.key === key) rmSync(path, { force: true })
        return null
      } finally {
        removeQuietly(token)
      }
    }
    const holder = readFound(token)
    // Gone between the two looks (its taker finished): the same generation is free again.
    if (holder === null) continue
    if (options.judge(holder) !== 'stale') return token
    generation++
  }
  return token
}

/**
 * What crashed starts left beside the lock: every takeover token (the caller owns the lock now,
 * so each guards a key that is gone) and the temporary files of dead processes. Best effort.
 */
export function sweepLeftovers(path: string, isAlive: (pid: number) => boolean): void {
  const dir = dirname(path)
  const name = basename(path)
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return
  }
  for (const entry of names) {
    if (!entry.startsWith(`${name}.`)) continue
    const temp = entry.lastIndexOf(TEMP_MARK)
    if (temp >= 0) {
      // A lock's or a token's file being written: only a dead process's.
      const pid = Number(entry.slice(temp + TEMP_MARK.length).split('-')[0])
      if (Number.isSafeInteger(pid) && pid > 0 && !isAlive(pid)) removeQuietly(join(dir, entry))
    } else if (entry.startsWith(`${name}${TOKEN_MARK}`)) {
      removeQuietly(join(dir, entry))
    }
  }
}

function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true })
  } catch {
    // A leftover that will not go is only clutter; the next owner tries again.
  }
}

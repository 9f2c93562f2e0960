import { AppError } from './app-error'
import { errorCode, errorMessage } from '@shared/guards'

/** What a failed write's code means, in words a user can act on. */
const PLAIN: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: "the disk quota of this computer's account is used up",
  EROFS: 'the data folder is on a disk that is mounted read-only',
  EACCES: 'Chainscope is not allowed to write to its data folder',
  EPERM: 'Chainscope is not allowed to write to its data folder',
  ENOTDIR: 'a file stands where the data folder (or a folder in it) should be',
  // mkdir of a folder where a file stands.
  EEXIST: 'a file stands where the data folder (or a folder in it) should be',
  EISDIR: 'a folder stands where a data file should be',
  EIO: 'the disk reported a read or write error',
  EMFILE: 'too many files are open at once',
}

/** Whether `error` is the disk or the file system refusing a write (not a fault in the data). */
export function isDiskError(error: unknown): boolean {
  const code = errorCode(error)
  return code !== undefined && Object.hasOwn(PLAIN, code)
}

/** A write's failure in plain words; the system's own message when the code is unknown. */
export function diskProblem(error: unknown): string {
  if (error instanceof DiskWriteError) return error.problem
  const code = errorCode(error)
  return (code && PLAIN[code]) ?? errorMessage(error).slice(0, 200)
}

/** A file's write failed: the disk refused it, not the content. */
export class DiskWriteError extends AppError {
  override name = 'DiskWriteError'
  readonly code: string | undefined
  /** The reason alone, in plain words ("the disk is full"). */
  readonly problem: string

  constructor(what: string, error: unknown) {
    const problem = diskProblem(error)
    super('internal', `The ${what} could not be saved: ${problem}.`, {}, { cause: error })
    this.code = errorCode(error)
    this.problem = problem
  }
}

/**
 * Failed writes that nobody waits for (the quota ledger inside the limiter's timer, the watch
 * check's state, the cache): each is caught where it happens and told to the user once, in
 * plain words, while the app goes on answering from memory. A file that writes again after a
 * failure is forgotten, so a later failure is told again.
 */
export class DiskReports {
  readonly #tell: (message: string) => void
  readonly #failing = new Set<string>()

  constructor(tell: (message: string) => void) {
    this.#tell = tell
  }

  /** `what`: the data in the user's words ("daily request count"); `effect`: what it means for them. */
  failed(what: string, error: unknown, effect: string): void {
    if (this.#failing.has(what)) return
    this.#failing.add(what)
    this.#tell(
      `Chainscope could not save the ${what}: ${diskProblem(error)}. It goes on working from memory; ${effect} Free some space or fix the folder's permissions, and it saves again.`,
    )
  }

  saved(what: string): void {
    this.#failing.delete(what)
  }
}

import { fstatSync } from 'node:fs'
import type { Readable } from 'node:stream'

export interface ParentWatchOptions {
  /** Called once, with why the parent is taken to be gone. */
  onGone(reason: string): void
  /** Default process.stdin, watched only when fd 0 is a pipe or socket (a parent's end of it). */
  stdin?: Readable
  /** Is fd 0 a pipe or socket? Default: fstat of fd 0. */
  stdinIsPipe?: () => boolean
  /** The current parent pid. Default process.ppid (read live on every call). */
  ppid?: () => number
  /** How often the parent pid is compared. Default 500 ms. */
  intervalMs?: number
}

function fd0IsPipe(): boolean {
  try {
    const stat = fstatSync(0)
    return stat.isFIFO() || stat.isSocket()
  } catch {
    return false
  }
}

/**
 * The sandbox ends with its parent however the parent died (SIGKILL and out-of-memory kills run
 * no exit handler), so no sandbox and no chain is left orphaned (issue 38,
 * docs/decisions/sandbox-lifecycle.md). Two signs, either suffices:
 * - end of stdin, when stdin is a pipe from the parent: the kernel closes it when the parent
 *   dies (a terminal or /dev/null is not watched, so `npm run sandbox` in a shell is unaffected);
 * - a new parent pid: an orphan is adopted by init or a subreaper (Electron's utility process
 *   has no stdin pipe, so this is its sign).
 * Answers a function that stops watching.
 */
export function watchParent(options: ParentWatchOptions): () => void {
  const ppid = options.ppid ?? (() => process.ppid)
  let done = false
  const gone = (reason: string): void => {
    if (done) return
    done = true
    stop()
    options.onGone(reason)
  }
  const stdin = options.stdin ?? process.stdin
  const watchStdin = (options.stdinIsPipe ?? fd0IsPipe)()
  const onEnd = (): void => gone('its stdin was closed')
  if (watchStdin) {
    stdin.on('end', onEnd)
    stdin.on('error', onEnd)
    // Read and drop whatever arrives: only its end matters.
    stdin.on('data', () => {})
    stdin.resume()
  }
  const first = ppid()
  // Started by init itself (pid 1) there is no parent to lose.
  const timer =
    first > 1
      ? setInterval(() => {
          const now = ppid()
          if (now !== first) gone(`its parent (pid ${first}) is gone`)
        }, options.intervalMs ?? 500)
      : null
  timer?.unref()
  function stop(): void {
    if (timer) clearInterval(timer)
    if (watchStdin) {
      stdin.off('end', onEnd)
      stdin.off('error', onEnd)
      stdin.pause()
    }
  }
  return () => {
    done = true
    stop()
  }
}

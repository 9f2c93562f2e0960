import { appendFile, mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'

/** What the log writer needs of the file system (node:fs/promises; a hanging one in tests). */
export interface AppendFs {
  appendFile(path: string, data: string): Promise<void>
  mkdir(path: string, options: { recursive: true }): Promise<unknown>
}

export interface LogFile {
  /** Queues one line (with its newline); never blocks and never throws. */
  write(line: string): void
  /** Resolves once every line queued so far has been written or dropped. */
  flush(): Promise<void>
}

/** Lines held while the disk is slow; past this the oldest are dropped and counted. */
const LOG_PENDING_MAX = 2_000

/**
 * The log file, appended asynchronously one batch at a time: a disk that stops answering
 * holds at most `maxPending` lines in memory and never the main process's thread; the lines it
 * could not keep are counted and said in the file once it answers again. A failed append is
 * given up (stderr has every line) — a full disk must not take the app down
 * (docs/decisions/disk-errors.md).
 */
export function logFile(file: string, options: { fs?: AppendFs; maxPending?: number } = {}): LogFile {
  const fs: AppendFs = options.fs ?? { appendFile, mkdir }
  const maxPending = options.maxPending ?? LOG_PENDING_MAX
  let pending: string[] = []
  let dropped = 0
  let running: Promise<void> | null = null
  const ready = fs.mkdir(dirname(file), { recursive: true }).catch(() => undefined)

  const drain = async (): Promise<void> => {
    await ready
    while (pending.length > 0 || dropped > 0) {
      const note =
        dropped > 0
          ? `${new Date().toISOString()} warn ${dropped} log lines dropped: the disk did not take them in time\n`
          : ''
      dropped = 0
      const batch = note + pending.join('')
      pending = []
      await fs.appendFile(file, batch).catch(() => undefined)
    }
  }
  const start = (): void => {
    running ??= drain().finally(() => {
      running = null
      if (pending.length > 0) start()
    })
  }
  return {
    write(line) {
      pending.push(line)
      if (pending.length > maxPending) {
        dropped += pending.length - maxPending
        pending = pending.slice(-maxPending)
      }
      start()
    },
    async flush() {
      while (running) await running
    },
  }
}

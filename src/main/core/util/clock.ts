/**
 * Time as the core sees it. Every timer and every "now" in core goes through a Clock so tests
 * run on vi.useFakeTimers() (the system clock reads the globals at call time, so faked globals
 * apply) and the analyst-hour benchmark runs on a simulated clock.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  setTimeout(fn: () => void, ms: number): ClockTimer
  clearTimeout(timer: ClockTimer): void
}

export type ClockTimer = unknown

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  // Only timers this clock's setTimeout made come back here (fake clocks use their own handles).
  clearTimeout: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
}

/** Resolves after `ms` on the clock; rejects with the signal's reason when aborted. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = (): void => {
      clock.clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = clock.setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      },
      Math.max(0, ms),
    )
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** Start of the next calendar day in UTC, the moment the daily quota resets. */
export function nextUtcMidnight(ms: number): number {
  const d = new Date(ms)
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
}

/** The UTC calendar day as YYYY-MM-DD. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10)
}

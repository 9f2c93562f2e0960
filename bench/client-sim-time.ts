import type { Clock } from '../src/main/core/util/clock'

/** Simulated time: timers run in order when the bench advances the clock; no real waiting. */
export class SimClock implements Clock {
  #now: number
  #seq = 0
  readonly #timers = new Map<number, { at: number; fn: () => void }>()

  constructor(startMs: number) {
    this.#now = startMs
  }

  now(): number {
    return this.#now
  }

  setTimeout(fn: () => void, ms: number): number {
    const id = ++this.#seq
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), fn })
    return id
  }

  clearTimeout(id: unknown): void {
    this.#timers.delete(id as number)
  }

  /** Runs every timer due by `t` in time order, letting promise chains settle in between. */
  async runUntil(t: number): Promise<void> {
    for (;;) {
      await settle()
      let nextId = -1
      let nextAt = Infinity
      for (const [id, timer] of this.#timers) {
        if (timer.at <= t && (timer.at < nextAt || (timer.at === nextAt && id < nextId))) {
          nextId = id
          nextAt = timer.at
        }
      }
      if (nextId < 0) break
      const timer = this.#timers.get(nextId)!
      this.#timers.delete(nextId)
      this.#now = Math.max(this.#now, timer.at)
      timer.fn()
    }
    this.#now = Math.max(this.#now, t)
  }
}

/**
 * Lets promise chains settle and the core's real file work (the day's count, its saves) finish
 * before simulated time moves on: four turns of the event loop were once enough, but a write
 * that takes longer on a busy disk then saw simulated seconds pass, and requests waiting for
 * the count's write were dropped at their queue deadline. Waits at most 5 s of real time.
 */
async function settle(): Promise<void> {
  const turns = async (): Promise<void> => {
    for (let i = 0; i < 4; i++) await new Promise((r) => setImmediate(r))
  }
  await turns()
  const giveUpAt = Date.now() + 5_000
  while (fileWorkPending() && Date.now() < giveUpAt) {
    await new Promise((r) => setTimeout(r, 1))
    await turns()
  }
}

/**
 * File work under way in this process: a file system request in Node's thread pool, a handle
 * closing, or an immediate that the core queued between two steps of a write (seen in a run
 * that failed with only the file requests watched: 1 in 4 runs). Our own immediates are
 * awaited before this is asked, so they are never counted.
 */
function fileWorkPending(): boolean {
  return process.getActiveResourcesInfo().some((r) => r.startsWith('FSReq') || r === 'Immediate' || r === 'CloseReq')
}

/** Deterministic uniform [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * A live chain in simulated time. 'slot': block k lands in its 2 s slot ± 0.5 s (jitter that
 * does not accumulate), exactly as sandbox/chain/live.ts schedules them and as slot-based
 * chains do. 'walk': each block 2 s × (1 ± 50%) after the previous (a random walk), kept to
 * show what the extrapolation would face on a drifting chain.
 */
export class SimChain {
  readonly #times: number[] = []
  readonly #start: number
  readonly #startHeight: number
  readonly #random: () => number
  readonly #model: 'walk' | 'slot'
  static readonly BLOCK_MS = 2000

  constructor(startMs: number, startHeight: number, seed: number, model: 'walk' | 'slot') {
    this.#start = startMs
    this.#startHeight = startHeight
    this.#random = mulberry32(seed)
    this.#model = model
    // The head at the start was produced a random part of a block earlier.
    this.#times.push(startMs - this.#random() * SimChain.BLOCK_MS)
  }

  #extend(untilMs: number): void {
    while (this.#times.at(-1)! <= untilMs) {
      const k = this.#times.length
      const prev = this.#times.at(-1)!
      const next =
        this.#model === 'walk'
          ? prev + SimChain.BLOCK_MS * (0.5 + this.#random())
          : Math.max(
              prev + 1,
              this.#times[0]! + k * SimChain.BLOCK_MS + (this.#random() - 0.5) * SimChain.BLOCK_MS * 0.5,
            )
      this.#times.push(next)
    }
  }

  heightAt(ms: number): number {
    this.#extend(ms)
    let lo = 0
    let hi = this.#times.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.#times[mid]! <= ms) lo = mid
      else hi = mid - 1
    }
    return this.#startHeight + lo
  }

  /** When block `h` was produced (history before the start: regular blocks). */
  producedAt(h: number): number {
    const k = h - this.#startHeight
    if (k < 0) return this.#times[0]! + k * SimChain.BLOCK_MS
    this.#extend(this.#start + (k + 2) * SimChain.BLOCK_MS * 2)
    return this.#times[k]!
  }
}

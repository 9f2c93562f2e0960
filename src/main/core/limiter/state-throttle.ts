import type { Clock, ClockTimer } from '../util/clock'

/**
 * Hands a state to its listener at most once per interval: at once when the last one is older
 * than that, otherwise once at the end of the interval, with the state as it is then.
 */
export class StateThrottle<S> {
  readonly #clock: Clock
  readonly #interval: number
  readonly #read: () => S
  readonly #listener: (state: S) => void
  #lastAt = -Infinity
  #timer: ClockTimer | null = null

  constructor(clock: Clock, intervalMs: number, read: () => S, listener: (state: S) => void) {
    this.#clock = clock
    this.#interval = intervalMs
    this.#read = read
    this.#listener = listener
  }

  publish(): void {
    const now = this.#clock.now()
    if (now - this.#lastAt >= this.#interval) {
      this.#lastAt = now
      this.#listener(this.#read())
      return
    }
    if (this.#timer !== null) return
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#timer = null
        this.#lastAt = this.#clock.now()
        this.#listener(this.#read())
      },
      this.#lastAt + this.#interval - now,
    )
  }

  /** Drops a state still waiting for its turn. */
  stop(): void {
    if (this.#timer !== null) this.#clock.clearTimeout(this.#timer)
    this.#timer = null
  }
}

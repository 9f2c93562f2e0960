import type { LaunchRequest } from './launch-args'

type Actionable = Exclude<LaunchRequest, { kind: 'none' }>

/** At most this many requests wait for the page; a flood of second launches cannot grow memory. */
const MAX_PENDING = 16

/**
 * Holds what the command line, links and second launches ask for until the renderer is
 * listening (a request sent before the page has loaded would be lost), then delivers in order.
 */
export class LaunchQueue {
  readonly #pending: Actionable[] = []
  #deliver: ((request: Actionable) => void) | null = null

  push(request: LaunchRequest): void {
    if (request.kind === 'none') return
    if (this.#deliver) return this.#deliver(request)
    if (this.#pending.length >= MAX_PENDING) this.#pending.shift()
    this.#pending.push(request)
  }

  /** The page is ready: deliver what waited, and from now on deliver at once. */
  open(deliver: (request: Actionable) => void): void {
    this.#deliver = deliver
    for (const request of this.#pending.splice(0)) deliver(request)
  }

  /** The page is (re)loading: hold requests again. */
  close(): void {
    this.#deliver = null
  }
}

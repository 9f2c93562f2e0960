import type { Priority } from '@shared/bridge/contract'
import { AppError } from '../util/app-error'

const RANK: Record<Priority, number> = { user: 0, prefetch: 1, background: 2 }

interface Waiter {
  scope: string | undefined
  priority: Priority
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

interface Entry {
  waiters: Set<Waiter>
  controller: AbortController
}

export interface WorkContext {
  /** The highest priority among those still waiting: a user joining a prefetch lifts it. */
  priority: () => Priority
  /** Aborted when every waiter has been cancelled. */
  signal: AbortSignal
}

/**
 * In-flight de-duplication with scoped cancellation. Identical requests share one piece of
 * work; each caller waits as a waiter with its own view scope. `cancelScope` drops that
 * scope's waiters at once, and aborts the shared work only when no waiter is left (a view
 * that is still open keeps it alive).
 */
export class InflightWork {
  readonly #entries = new Map<string, Entry>()

  get size(): number {
    return this.#entries.size
  }

  run<T>(
    key: string,
    options: { priority: Priority; scope?: string },
    work: (ctx: WorkContext) => Promise<T>,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // Waiters of one key share one work's result: each gets the T its own caller asked for.
      const waiter: Waiter = {
        scope: options.scope,
        priority: options.priority,
        resolve: resolve as (v: unknown) => void,
        reject,
      }
      const existing = this.#entries.get(key)
      if (existing) {
        existing.waiters.add(waiter)
        return
      }
      const entry: Entry = { waiters: new Set([waiter]), controller: new AbortController() }
      this.#entries.set(key, entry)
      const priority = (): Priority => {
        let best: Priority = 'background'
        for (const w of entry.waiters) if (RANK[w.priority] < RANK[best]) best = w.priority
        return best
      }
      work({ priority, signal: entry.controller.signal }).then(
        (value) => this.#finish(key, entry, (w) => w.resolve(value)),
        (error: unknown) => this.#finish(key, entry, (w) => w.reject(error)),
      )
    })
  }

  /** Cancels the waiters of `scope`; returns how many were cancelled. */
  cancelScope(scope: string): number {
    let cancelled = 0
    for (const entry of this.#entries.values()) {
      for (const waiter of [...entry.waiters]) {
        if (waiter.scope !== scope) continue
        entry.waiters.delete(waiter)
        waiter.reject(new AppError('cancelled', 'Cancelled: the view that asked for this was closed.'))
        cancelled += 1
      }
      if (entry.waiters.size === 0)
        entry.controller.abort(new AppError('cancelled', 'Cancelled: nobody is waiting for this any more.'))
    }
    return cancelled
  }

  cancelAll(reason: string): void {
    for (const entry of this.#entries.values()) {
      for (const waiter of entry.waiters) waiter.reject(new AppError('cancelled', reason))
      entry.waiters.clear()
      entry.controller.abort(new AppError('cancelled', reason))
    }
  }

  #finish(key: string, entry: Entry, settle: (w: Waiter) => void): void {
    if (this.#entries.get(key) === entry) this.#entries.delete(key)
    for (const w of entry.waiters) settle(w)
    entry.waiters.clear()
  }
}

import { checkPage, newPagingWalk, type PagingWalk } from '@shared/domain/paging-guard'
import type { Transaction } from '@shared/domain/service-schemas'
import { decodeCursor, type CursorParams } from '../service/cursor'
import type { Logger } from '../util/logger'

/**
 * The paging guard (shared/domain/paging-guard.ts) on every page handed out, cached or not:
 * a walk starts at the first page and follows the cursors this service handed out. A cursor
 * from before a restart starts a walk of its own.
 */
export class PagingWalks {
  /** The walk each handed-out cursor belongs to, newest last; bounded. */
  readonly #walks = new Map<string, PagingWalk>()
  readonly #log: Logger | undefined

  constructor(log?: Logger) {
    this.#log = log
  }

  /** Why paging stops at this page (its next cursor is then withheld), or null. */
  guard(
    network: string,
    address: string,
    cursor: string | null,
    page: { items: Transaction[]; nextCursor: string | null },
  ): string | null {
    const key = (c: string): string => `${network}|${address}|${c}`
    const walk = (cursor !== null ? this.#walks.get(key(cursor)) : undefined) ?? newPagingWalk()
    if (walk.position === null && cursor !== null) walk.position = cursorPosition(decodeCursor(cursor))
    const next = page.nextCursor
    const stopped = checkPage(walk, {
      cursor,
      nextCursor: next,
      itemIds: page.items.map((tx) => tx.hash),
      nextPosition: next ? cursorPosition(decodeCursor(next)) : null,
    })
    if (!stopped && next !== null) {
      this.#walks.delete(key(next))
      this.#walks.set(key(next), walk)
      // Oldest first out: a walk is only needed while someone pages.
      if (this.#walks.size > 500) this.#walks.delete(this.#walks.keys().next().value!)
    }
    if (stopped) this.#log?.warn(`${network} ${address.slice(0, 8)}…: ${stopped}`)
    return stopped
  }
}

/** (block, index) of a cursor, when the service put them in (Blockscout: `block_number`, `index`). */
function cursorPosition(params: CursorParams): [number, number] | null {
  const num = (v: unknown): number | null =>
    typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : null
  const block = num(params.block_number)
  const index = num(params.index)
  return block === null || index === null ? null : [block, index]
}

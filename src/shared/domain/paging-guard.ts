/**
 * One rule for following a service's page cursors, used by main's data
 * service and by every caller that walks pages (the renderer's "Load all" and auto-scroll,
 * exports, watch checks). A walk stops when the service:
 * - hands back a cursor already followed in this walk (it would loop forever);
 * - hands a cursor whose (block, index) does not move backwards, when it carries one (the
 *   list is newest first, so every next page starts older);
 * - sends `maxIdlePages` pages in a row that add no item not seen before (empty pages, each
 *   with a fresh cursor, would burn the daily quota).
 */
export interface PagingWalk {
  /** Cursors already followed in this walk. */
  readonly cursors: Set<string>
  /** Item ids (transaction hashes) seen in this walk. */
  readonly ids: Set<string>
  /** Pages in a row that added nothing new. */
  idlePages: number
  /** Where the last followed cursor pointed, when it said. */
  position: readonly [number, number] | null
  /** The verdict once given for a cursor: a page asked again (a retry) is judged the same. */
  readonly verdicts: Map<string, string | null>
}

export interface PageSeen {
  /** The cursor the page was asked with; null for the first page. */
  cursor: string | null
  nextCursor: string | null
  itemIds: string[]
  /** (block, index) the next cursor points at, when it is known (main decodes it). */
  nextPosition?: readonly [number, number] | null
}

/** Three pages that add nothing: enough for a filtered or sparse page, not enough to burn a quota. */
const MAX_IDLE_PAGES = 3

export function newPagingWalk(): PagingWalk {
  return { cursors: new Set(), ids: new Set(), idlePages: 0, position: null, verdicts: new Map() }
}

/** Records a page; returns why the walk must stop here (a sentence), or null to go on. */
export function checkPage(walk: PagingWalk, page: PageSeen, maxIdlePages = MAX_IDLE_PAGES): string | null {
  const key = page.cursor ?? ''
  const earlier = walk.verdicts.get(key)
  if (earlier !== undefined) return earlier
  const verdict = judge(walk, page, maxIdlePages)
  walk.verdicts.set(key, verdict)
  return verdict
}

function judge(walk: PagingWalk, page: PageSeen, maxIdlePages: number): string | null {
  if (page.cursor !== null) walk.cursors.add(page.cursor)
  let added = 0
  for (const id of page.itemIds) {
    if (!walk.ids.has(id)) {
      walk.ids.add(id)
      added++
    }
  }
  walk.idlePages = added === 0 ? walk.idlePages + 1 : 0
  if (page.nextCursor === null) return null
  if (page.nextCursor === page.cursor || walk.cursors.has(page.nextCursor)) {
    return 'Paging stopped: the service sent a page cursor it had already sent (it would repeat pages forever).'
  }
  const next = page.nextPosition ?? null
  if (next !== null && walk.position !== null && !before(next, walk.position)) {
    return 'Paging stopped: the service sent a next page that does not start further back in the history.'
  }
  if (next !== null) walk.position = next
  if (walk.idlePages >= maxIdlePages) {
    return `Paging stopped: ${walk.idlePages} pages in a row added no new transaction (following more would only spend the quota).`
  }
  return null
}

/** Whether (block, index) `a` lies strictly before `b` in the chain. */
function before(a: readonly [number, number], b: readonly [number, number]): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1])
}

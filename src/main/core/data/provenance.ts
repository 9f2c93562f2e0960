import type { DataSource, Provenance } from '@shared/bridge/contract'
import { AppError } from '../util/app-error'

export type Stale = Provenance['staleReason']

/** Errors after which a saved snapshot is shown instead, and how the view is marked. */
export function staleReasonFor(error: unknown): Stale | undefined {
  if (!(error instanceof AppError)) return undefined
  switch (error.kind) {
    case 'offline':
    case 'timeout':
    case 'server':
      return 'offline'
    case 'offline-by-choice':
      return 'offline-by-choice'
    case 'quota-exhausted':
      return 'quota'
    case 'rate-limited':
      return 'rate-limited'
    default:
      return undefined
  }
}

/** Where a view's data came from and when: the network, the cache (maybe revalidated) or a snapshot. */
export function provenance(
  source: DataSource,
  fetchedAt: number,
  staleReason: Stale,
  checkedAt: number | null = null,
): Provenance {
  return {
    source,
    fetchedAt: new Date(fetchedAt).toISOString(),
    staleReason,
    ...(checkedAt !== null ? { checkedAt: new Date(checkedAt).toISOString() } : {}),
  }
}

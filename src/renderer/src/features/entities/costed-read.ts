import { computed, type ComputedRef } from 'vue'
import type { Provenance } from '@shared/bridge/contract'
import type { EntityAsOf, EntityCost, EntityRead } from '@shared/bridge/entity-types'
import type { BridgeResult } from '@shared/bridge/errors'
import { bridge } from '../../platform/bridge'
import { fetched, type Fetched, type FetchedSummary } from '../../platform/fetched'

/** What one entity read is of: the network and the address, transaction hash or block number. */
export interface EntityKey {
  network: string
  id: string
}

export const sameEntity = (a: EntityKey, b: EntityKey): boolean => a.network === b.network && a.id === b.id

/** An entity answer's "as of": main's cache or the node (docs/decisions/entity-views.md). */
export function entityProvenance(v: EntityAsOf): Provenance {
  return { source: v.source, fetchedAt: v.fetchedAt, staleReason: null }
}

export interface CostedRead<T> {
  /** What the read costs now (free to ask: main counts, nothing is sent). */
  cost: Fetched<EntityKey, EntityCost>
  /** The answer, through the fetched-data layer (its "as of", a failure beside it). */
  view: Fetched<EntityKey, T>
  /** What FetchedState shows: the answer's "as of" and its failure, or the cost's failure before any answer. */
  state: ComputedRef<FetchedSummary>
  /** The way forward from `state`'s failure: ask the cost again, or read again. */
  retry(): Promise<void>
  /** The read costs nothing now (cached, or the service's word is loaded). */
  free: ComputedRef<boolean>
  /** The cost is known and the user has not chosen to read yet. */
  waiting: ComputedRef<boolean>
  /** Asks the cost of `key`; reads at once only when that is free, else waits for `run`. */
  open(key: EntityKey): Promise<void>
  /** The user chose to read at the cost shown. */
  run(): Promise<void>
  reset(): void
}

/**
 * One user-started read of what an address, a transaction or a block is: its cost first
 * (`entities.cost`), then the read only when the user runs it, unless it costs nothing (main
 * answers from its cache: shown at once with its "as of"). docs/decisions/entity-views.md.
 */
export function costedRead<T extends EntityAsOf>(
  read: EntityRead,
  live: (key: EntityKey, refresh: boolean) => Promise<BridgeResult<T>>,
): CostedRead<T> {
  const cost = fetched<EntityKey, EntityCost>({
    same: sameEntity,
    live: (key) => bridge.invoke('entities.cost', { network: key.network, read, id: key.id }),
  })
  const view = fetched<EntityKey, T>({
    same: sameEntity,
    live: (key, ctx) => live(key, ctx.refresh),
    provenance: entityProvenance,
  })
  const free = computed(() => cost.data.value !== null && cost.data.value.upTo === 0)
  const waiting = computed(
    () => cost.data.value !== null && view.data.value === null && view.status.value !== 'loading' && !free.value,
  )

  async function open(key: EntityKey): Promise<void> {
    if (view.key.value !== null && !sameEntity(view.key.value, key)) view.reset()
    await cost.load(key)
    const now = cost.key.value
    if (now === null || !sameEntity(now, key)) return
    if (free.value) await view.load(key, { again: false })
  }

  const state = computed((): FetchedSummary => {
    const shown = view.summary.value
    const e = cost.error.value
    if (shown.error || !e) return shown
    return { ...shown, error: e, errorAt: cost.errorAt.value, failingSince: cost.failingSince.value }
  })

  async function retry(): Promise<void> {
    const key = cost.key.value
    if (key === null) return
    if (cost.error.value) await open(key)
    else await view.load(key, { refresh: view.data.value !== null })
  }

  async function run(): Promise<void> {
    const key = cost.key.value
    if (key !== null) await view.load(key)
  }

  return {
    cost,
    view,
    state,
    retry,
    free,
    waiting,
    open,
    run,
    reset: () => {
      cost.reset()
      view.reset()
    },
  }
}

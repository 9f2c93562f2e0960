import { computed, ref, shallowRef, type ComputedRef, type Ref, type ShallowRef } from 'vue'
import type { Provenance } from '@shared/bridge/contract'
import type { BridgeError, BridgeResult } from '@shared/bridge/errors'
import { bridge } from './bridge'

/**
 * The renderer's one layer for what main fetched (docs/architecture.md "Shared layers", docs/style.md rule 15):
 * every view that shows a fetched answer reads it through `fetched()`, so status, error, the
 * answer's time and provenance, stale-while-revalidate, the late-answer guard, refresh and
 * cancellation on leave hold on every panel at once. Stores keep what the user chose and what
 * derives from it. Why a primitive of our own and not a query library:
 * docs/decisions/fetched-data-layer.md.
 */

export type FetchStatus = 'idle' | 'loading' | 'ready' | 'error'

export interface LiveContext<T> {
  /** The user asked for a refresh: main skips its fresh cache. */
  refresh: boolean
  /** What is on screen now (main's cached answer, or the previous one), to merge with. */
  shown: T | null
}

export interface FetchedOptions<K, T> {
  /** The same view? (Another key clears what is shown.) */
  same: (a: K, b: K) => boolean
  /** Main's kept answer of any age, read for free (never a request); null when none is kept. */
  cached?: (key: K) => Promise<T | null>
  /** The live read (main may still answer from a fresh cache). */
  live: (key: K, context: LiveContext<T>) => Promise<BridgeResult<T>>
  /** An answer's time and source: its "as of". */
  provenance?: (value: T) => Provenance | null
  /** The scope of main's queued work for a key, cancelled when the view is left. */
  scope?: (key: K) => string
  /** Told every answer that is shown (e.g. a summary kept for the watchlist rows). */
  onAnswer?: (value: T, key: K) => void
}

export interface LoadOptions {
  refresh?: boolean
  /** Read again even when this key is shown or loading (default true). */
  again?: boolean
  /** Only main's kept answer, no live read (a view that costs no requests of its own). */
  cacheOnly?: boolean
}

/** What a view says about the data it shows (platform/FetchedState.vue reads it). */
export interface FetchedSummary {
  provenance: Provenance | null
  error: BridgeError | null
  errorAt: number
  failingSince: number
  refreshing: boolean
  /** Data is on screen. */
  shown: boolean
}

export interface Fetched<K, T> {
  key: Ref<K | null>
  /** What is on screen: the live answer, or main's cached one until it comes (and if it fails). */
  data: ShallowRef<T | null>
  /** Of the last read: 'loading' while one runs, 'error' when the last one failed. */
  status: Ref<FetchStatus>
  /** A live read is running behind data already shown. */
  refreshing: Ref<boolean>
  error: Ref<BridgeError | null>
  /** Which read the error came from: the view's own (`load`), or a further one (`extend`). */
  errorFrom: Ref<'load' | 'extend' | null>
  /** When the last error arrived (ms), for a retry countdown. */
  errorAt: Ref<number>
  /** When the first of the failures in a row was asked (ms): "not answering since". 0 when none. */
  failingSince: Ref<number>
  /** The shown answer's time and source. */
  provenance: ComputedRef<Provenance | null>
  summary: ComputedRef<FetchedSummary>
  /** Data is shown from main's cache only: the live read has not answered (yet, or at all). */
  fromCache: Ref<boolean>
  load(key: K, options?: LoadOptions): Promise<void>
  /** The shown key again, live and past main's fresh cache (the user asked). */
  refresh(): Promise<void>
  /**
   * Another read for the shown key (a next page): dropped if the key changed or the view was
   * left meanwhile; a failure goes to `error`, a null answer (nothing, quietly) nowhere.
   * Answers whether it was applied.
   */
  extend<U>(
    read: (shown: T | null) => Promise<BridgeResult<U> | null>,
    merge: (shown: T | null, answer: U) => T,
  ): Promise<boolean>
  /** Shows an answer main gave to an action on the shown key (a scan's result), as the live one. */
  replace(value: T): void
  /** True while nothing newer (another key, a leave, a reset) started since `ticket` was taken. */
  current(ticket: number): boolean
  ticket(): number
  /** Leaving the view: later answers are dropped and main's queued work for the key cancelled. */
  leave(): Promise<void>
  reset(): void
}

/**
 * Why main answers with its saved copy when the service failed, in the words of the failure
 * (offline by choice is no failure: nothing was asked).
 */
const SERVED_FOR_FAILURE: Partial<Record<NonNullable<Provenance['staleReason']>, string>> = {
  offline: 'Service not answering',
  quota: "Today's quota used up",
  'rate-limited': 'Service asking to slow down',
}

/** The failure a saved copy main served stands for, if it stands for one. */
export function servedForFailure(p: Provenance | null): string | null {
  if (!p || p.source === 'network' || !p.staleReason) return null
  return SERVED_FOR_FAILURE[p.staleReason] ?? null
}

function quiet(error: BridgeError): boolean {
  return error.kind === 'cancelled'
}

export function fetched<K, T>(options: FetchedOptions<K, T>): Fetched<K, T> {
  const key = ref<K | null>(null) as Ref<K | null>
  const data = shallowRef<T | null>(null)
  const status = ref<FetchStatus>('idle')
  const refreshing = ref(false)
  const error = ref<BridgeError | null>(null)
  const errorAt = ref(0)
  const errorFrom = ref<'load' | 'extend' | null>(null)
  const failingSince = ref(0)
  const fromCache = ref(false)
  const provenance = computed(() => (data.value !== null && options.provenance ? options.provenance(data.value) : null))
  // The late-answer guard: every answer carries the generation it was asked in.
  const summary = computed((): FetchedSummary => ({
    provenance: provenance.value,
    error: error.value,
    errorAt: errorAt.value,
    failingSince: failingSince.value,
    refreshing: refreshing.value,
    shown: data.value !== null,
  }))
  let generation = 0
  let inflight: Promise<void> | null = null
  /** What was asked for the shown key: nothing yet, main's kept answer, or the live one. */
  let asked: 'none' | 'cache' | 'live' = 'none'

  const current = (ticket: number): boolean => ticket === generation

  function show(value: T, k: K): void {
    data.value = value
    options.onAnswer?.(value, k)
  }

  function failed(e: BridgeError, askedAt: number, from: 'load' | 'extend'): void {
    if (quiet(e)) return
    error.value = e
    errorFrom.value = from
    errorAt.value = Date.now()
    if (failingSince.value === 0) failingSince.value = askedAt
  }

  function succeeded(): void {
    error.value = null
    errorFrom.value = null
    failingSince.value = 0
  }

  async function run(k: K, mine: number, opts: LoadOptions): Promise<void> {
    if (data.value === null && options.cached) {
      const kept = await options.cached(k)
      if (!current(mine)) return
      if (kept !== null && data.value === null) {
        show(kept, k)
        fromCache.value = true
      }
    }
    if (opts.cacheOnly) {
      status.value = data.value === null ? 'idle' : 'ready'
      return
    }
    refreshing.value = data.value !== null
    const askedAt = Date.now()
    const result = await options.live(k, { refresh: opts.refresh ?? false, shown: data.value })
    if (!current(mine)) return
    refreshing.value = false
    if (result.ok) {
      show(result.value, k)
      fromCache.value = false
      // Main answered with its saved copy because the service failed: a failure beside the
      // data (its words in FetchedState.vue), not a fresh answer.
      if (servedForFailure(provenance.value) !== null) {
        error.value = null
        if (failingSince.value === 0) failingSince.value = askedAt
      } else succeeded()
      status.value = 'ready'
    } else if (quiet(result.error)) status.value = data.value === null ? 'idle' : 'ready'
    else {
      failed(result.error, askedAt, 'load')
      status.value = 'error'
    }
  }

  function load(k: K, opts: LoadOptions = {}): Promise<void> {
    const same = key.value !== null && options.same(key.value, k)
    const want = opts.cacheOnly ? 'cache' : 'live'
    // Once is enough: a live read covers a cache-only one, not the other way round.
    if (same && opts.again === false && !opts.refresh && (asked === 'live' || asked === want))
      return inflight ?? Promise.resolve()
    if (!same) {
      data.value = null
      fromCache.value = false
      succeeded()
      key.value = k
    }
    if (!same || asked !== 'live') asked = want
    const mine = ++generation
    status.value = 'loading'
    const p = run(k, mine, opts).finally(() => {
      if (current(mine)) inflight = null
    })
    inflight = p
    return p
  }

  async function extend<U>(
    read: (shown: T | null) => Promise<BridgeResult<U> | null>,
    merge: (shown: T | null, answer: U) => T,
  ): Promise<boolean> {
    const k = key.value
    if (k === null) return false
    const mine = generation
    const askedAt = Date.now()
    const result = await read(data.value)
    if (!current(mine) || result === null) return false
    if (!result.ok) {
      failed(result.error, askedAt, 'extend')
      return false
    }
    show(merge(data.value, result.value), k)
    succeeded()
    return true
  }

  function reset(): void {
    generation++
    asked = 'none'
    inflight = null
    key.value = null
    data.value = null
    status.value = 'idle'
    refreshing.value = false
    fromCache.value = false
    succeeded()
    errorAt.value = 0
  }

  async function leave(): Promise<void> {
    const k = key.value
    generation++
    // A read dropped here is asked again when the view comes back.
    if (inflight) asked = 'none'
    inflight = null
    refreshing.value = false
    if (status.value === 'loading') status.value = data.value === null ? 'idle' : 'ready'
    if (k !== null && options.scope) await bridge.invoke('work.cancel', { scope: options.scope(k) })
  }

  return {
    key,
    data,
    status,
    refreshing,
    error,
    errorAt,
    errorFrom,
    failingSince,
    provenance,
    summary,
    fromCache,
    load,
    refresh: () => (key.value === null ? Promise.resolve() : load(key.value, { refresh: true })),
    extend,
    replace: (value: T) => {
      if (key.value === null) return
      show(value, key.value)
      fromCache.value = false
      succeeded()
      status.value = 'ready'
    },
    current,
    ticket: () => generation,
    leave,
    reset,
  }
}

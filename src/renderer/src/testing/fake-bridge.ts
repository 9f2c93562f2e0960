import type {
  BridgeCallInput,
  BridgeCallName,
  BridgeCallOutputs,
  BridgeEventName,
  BridgeEvents,
  ChainscopeBridge,
} from '@shared/bridge/contract'
import type { BridgeError, BridgeResult } from '@shared/bridge/errors'
import { isRecord } from '@shared/guards'

type Handler<K extends BridgeCallName> = (
  input: BridgeCallInput<K>,
) => BridgeCallOutputs[K] | Promise<BridgeCallOutputs[K]>

/** Thrown by a fake handler to answer a typed error, as main's handlers do. */
export class FakeBridgeFailure extends Error {
  override readonly name = 'FakeBridgeFailure'
  constructor(readonly error: BridgeError) {
    super(error.message)
  }
}

export interface FakeBridge extends ChainscopeBridge {
  /** Every call made, in order. */
  calls: { name: BridgeCallName; input: unknown }[]
  /** The free cache-only reads answered "nothing cached" by default (see `handle`). */
  cacheReads: { name: BridgeCallName; input: unknown }[]
  /**
   * `cached`: the handler answers cache-only reads (`cacheOnly: true`) too, and they count among
   * `calls`. Without it main holds no cache: such a read answers `not-found` and goes to
   * `cacheReads`, so a test of the live path sees only the live calls.
   */
  handle<K extends BridgeCallName>(name: K, handler: Handler<K>, options?: { cached?: boolean }): void
  /** Pushes an event as main would. */
  emit<E extends BridgeEventName>(event: E, payload: BridgeEvents[E]): void
  callsOf(name: BridgeCallName): unknown[]
}

const isCacheRead = (input: unknown): boolean => isRecord(input) && input.cacheOnly === true

/**
 * A bridge for component tests: the renderer's side of the contract is real, main's side is
 * whatever the test installs. Calls without a handler answer `internal`, as an unwired build does.
 */
export function createFakeBridge(): FakeBridge {
  const handlers = new Map<BridgeCallName, (input: unknown) => unknown>()
  const listeners = new Map<BridgeEventName, Set<(payload: unknown) => void>>()
  const calls: FakeBridge['calls'] = []
  const cacheReads: FakeBridge['cacheReads'] = []
  const answersCache = new Set<BridgeCallName>()
  return {
    calls,
    cacheReads,
    handle(name, handler, options = {}) {
      handlers.set(name, handler as (input: unknown) => unknown)
      if (options.cached) answersCache.add(name)
      else answersCache.delete(name)
    },
    emit(event, payload) {
      for (const l of listeners.get(event) ?? []) l(payload)
    },
    callsOf(name) {
      return calls.filter((c) => c.name === name).map((c) => c.input)
    },
    async invoke<K extends BridgeCallName>(
      name: K,
      input: BridgeCallInput<K>,
    ): Promise<BridgeResult<BridgeCallOutputs[K]>> {
      if (isCacheRead(input) && !answersCache.has(name)) {
        cacheReads.push({ name, input })
        return { ok: false, error: { kind: 'not-found', message: 'Nothing of this is cached.' } }
      }
      calls.push({ name, input })
      const handler = handlers.get(name)
      if (!handler)
        return { ok: false, error: { kind: 'internal', message: `${name} is not available in this build.` } }
      try {
        return { ok: true, value: (await handler(input)) as BridgeCallOutputs[K] }
      } catch (error) {
        if (error instanceof FakeBridgeFailure) return { ok: false, error: error.error }
        throw error
      }
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set)
      set.add(listener as (payload: unknown) => void)
      return () => set.delete(listener as (payload: unknown) => void)
    },
  }
}

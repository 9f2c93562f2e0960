import { ref, type Ref } from 'vue'
import type { BridgeError, BridgeResult } from '@shared/bridge/errors'

/**
 * What the user asked main to do (save, import, scan): whether it runs, and how it failed.
 * Not fetched data (platform/fetched.ts): nothing is cached or shown stale. One holder for a
 * form's error instead of a `ref<BridgeError | null>` per component (docs/decisions/fetched-data-layer.md).
 */
export interface Action {
  busy: Ref<boolean>
  error: Ref<BridgeError | null>
  /** When the error arrived (ms), for a retry countdown. */
  errorAt: Ref<number>
  /** Runs the call: its value, or null with `error` set (a cancelled call sets none). */
  run<T>(call: () => Promise<BridgeResult<T>>): Promise<T | null>
  /** A failure found before any call (a check in the form itself). */
  fail(error: BridgeError): void
  clear(): void
}

export function action(): Action {
  const busy = ref(false)
  const error = ref<BridgeError | null>(null)
  const errorAt = ref(0)
  function fail(e: BridgeError): void {
    error.value = e
    errorAt.value = Date.now()
  }
  async function run<T>(call: () => Promise<BridgeResult<T>>): Promise<T | null> {
    busy.value = true
    error.value = null
    try {
      const r = await call()
      if (r.ok) return r.value
      if (r.error.kind !== 'cancelled') fail(r.error)
      return null
    } finally {
      busy.value = false
    }
  }
  return { busy, error, errorAt, run, fail, clear: () => (error.value = null) }
}

import { computed, type Ref } from 'vue'
import type { BridgeError } from '@shared/bridge/errors'
import { secondsUntil } from './errors'

/** Seconds until an error's `retryAfterMs` has passed, counted from when it arrived, as of `now` (ms). */
export function useRetryCountdown(
  error: Readonly<Ref<BridgeError | null>>,
  arrivedAt: Readonly<Ref<number>>,
  now: Readonly<Ref<number>>,
) {
  return computed(() => {
    const e = error.value
    if (!e || typeof e.retryAfterMs !== 'number') return 0
    return secondsUntil(arrivedAt.value + e.retryAfterMs, now.value)
  })
}

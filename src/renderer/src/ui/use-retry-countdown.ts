import { computed, type Ref } from 'vue'
import type { BridgeError } from '@shared/bridge/errors'
import { secondsUntil } from './errors'
import { useClockStore } from '../platform/clock-store'

/** Seconds until an error's `retryAfterMs` has passed, counted from when it arrived. */
export function useRetryCountdown(error: Readonly<Ref<BridgeError | null>>, arrivedAt: Readonly<Ref<number>>) {
  const clock = useClockStore()
  return computed(() => {
    const e = error.value
    if (!e || typeof e.retryAfterMs !== 'number') return 0
    return secondsUntil(arrivedAt.value + e.retryAfterMs, clock.now)
  })
}

import { computed, type Ref } from 'vue'
import type { BridgeError } from '@shared/bridge/errors'
import { formatDuration } from '@shared/domain/duration'
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

/** "5 s", "3 min", "2 h 5 min": the reset can be hours away. */
export function formatWait(seconds: number): string {
  return seconds < 120 ? `${seconds} s` : formatDuration(seconds * 1000)
}

import { computed, type ComputedRef } from 'vue'
import { formatClock } from '../ui/time'
import { useConnectivityStore } from './connectivity-store'
import { useLimiterStore } from './limiter-store'
import { useSessionStore } from './session-store'

export interface NetworkGate {
  blocked: boolean
  /** Why actions that need the network are disabled, in plain words. */
  reason: string | null
}

/** Whether actions that need the network can run now, and why not. */
export function useNetworkGate(): ComputedRef<NetworkGate> {
  const session = useSessionStore()
  const connectivity = useConnectivityStore()
  const limiter = useLimiterStore()
  return computed(() => {
    if (!session.active) return { blocked: true, reason: 'Choose the sandbox or a service profile first.' }
    if (!session.ready) {
      return {
        blocked: true,
        reason:
          session.active.kind === 'sandbox'
            ? session.sandbox?.stoppedAt
              ? 'The sandbox is stopped: start it again in Settings.'
              : 'The sandbox is not running yet.'
            : 'This profile has no API key yet: add one in Settings.',
      }
    }
    if (!connectivity.online)
      return {
        blocked: true,
        reason: `${connectivity.reason ?? 'The service cannot be reached'}. Saved copies are shown.`,
      }
    if (limiter.exhausted)
      return {
        blocked: true,
        reason: `Today's request quota is used up; it resets at ${formatClock(limiter.resetsAtMs)}.`,
      }
    return { blocked: false, reason: null }
  })
}

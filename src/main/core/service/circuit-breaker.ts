import type { ConnectionEndpoint } from '@shared/bridge/contract'
import { AppError } from '../util/app-error'
import type { ConnectionState } from './connection-state'

/** The permission to send one attempt; `done` after it ended, however it ended. */
export interface Ticket {
  /** This attempt is the one probe of an open breaker. */
  readonly probe: boolean
  done(): void
}

const ENDPOINT_WORDS: Record<ConnectionEndpoint, string> = { data: 'data API', rpc: 'RPC endpoint' }

/** "07:33:05 UTC". */
function utcTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)} UTC`
}

/**
 * Whether an attempt may be sent now, read from the connection state (connection-state.ts):
 * nothing while "Work offline" is on; while a network's endpoint is not answering (the breaker
 * open), nothing until its next retry time, then one probe at a time, and everything again once
 * a probe is answered; while an attempt hangs (out `holdAfterMs` with nothing heard), the next
 * ones wait for it. A call refused here fails at once with a typed error (`offline`: the data
 * service then serves its saved copy), so background work is dropped rather than queued and
 * nothing fires in a burst when the service returns. See docs/decisions/connection-truth.md.
 */
export async function admit(
  state: ConnectionState,
  network: string,
  endpoint: ConnectionEndpoint,
  signal?: AbortSignal,
): Promise<Ticket> {
  // An attempt out for a while with nothing heard since: wait for its end (an answer lets this
  // one go; a timeout opens the breaker and this one fails at once) rather than pile up behind it.
  while (!state.workOffline && state.record(network, endpoint).nextRetryAt === null && state.suspect(network, endpoint))
    await state.nextChange(network, endpoint, signal)
  return admitNow(state, network, endpoint)
}

function admitNow(state: ConnectionState, network: string, endpoint: ConnectionEndpoint): Ticket {
  if (state.workOffline)
    throw new AppError(
      'offline-by-choice',
      'Work offline is on: Chainscope sends nothing to the service and shows saved copies only. Switch "Work offline" off to fetch again.',
    )
  const r = state.record(network, endpoint)
  if (r.nextRetryAt === null) return { probe: false, done: () => undefined }
  const now = state.clock.now()
  const since = r.since === null ? '' : ` since ${utcTime(r.since)}`
  const what = `The service's ${ENDPOINT_WORDS[endpoint]} for ${network} has not answered${since}`
  if (now < r.nextRetryAt)
    throw new AppError('offline', `${what}; Chainscope tries again at ${utcTime(r.nextRetryAt)}.`, {
      retryAfterMs: r.nextRetryAt - now,
    })
  if (!state.setProbing(network, endpoint, true))
    throw new AppError('offline', `${what}; a test request is on its way.`, { retryAfterMs: 1000 })
  let open = true
  return {
    probe: true,
    done: () => {
      if (open) state.setProbing(network, endpoint, false)
      open = false
    },
  }
}

import type { ConnectionView, EndpointConnection } from '@shared/bridge/contract'
import { formatClock, parseTime } from '../ui/time'

/** What the header says of the connection, from main's one event (docs/architecture.md "Connection truth"). */
export interface ConnectionSummary {
  kind: 'online' | 'unknown' | 'not-answering' | 'refused' | 'quota' | 'offline-by-choice' | 'sandbox-stopped'
  /** Short, visible words: "Online", "Not answering since 07:33 · retrying in 40 s". */
  text: string
  /** Longer words for the title and screen readers (the last failure, per endpoint). */
  detail: string
}

const ENDPOINT: Record<EndpointConnection['endpoint'], string> = { data: 'data API', rpc: 'RPC' }

/** "00:00 UTC": the quota resets at midnight UTC, whatever the local zone. */
function utcClock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 16)} UTC`
}

function retryWords(at: string | null, nowMs: number): string {
  const ms = parseTime(at)
  if (ms === null) return ''
  const s = Math.ceil((ms - nowMs) / 1000)
  // Main sends no probe of its own: the next request (a view, the live height) is the try.
  return s > 0 ? ` · retrying in ${s} s` : ' · retrying with the next request'
}

/**
 * The header's words for the active profile's endpoints: "Online" only while the calls made
 * answer; otherwise the worst thing known, naming the network and endpoint when others still
 * answer. `labelOf` names a network ("alpha" → "Alpha").
 */
export function connectionSummary(
  view: ConnectionView | null,
  nowMs: number,
  labelOf: (network: string) => string = (n) => n,
): ConnectionSummary {
  if (view?.workOffline)
    return {
      kind: 'offline-by-choice',
      text: 'Offline by choice',
      detail:
        'Work offline is on: nothing is sent to the service; saved copies are shown. Switch it off to fetch again.',
    }
  const stopped = view?.sandboxStopped
  if (stopped)
    return {
      kind: 'sandbox-stopped',
      text: `Sandbox stopped${stopped.unexpected ? ' unexpectedly' : ''} at ${formatClock(parseTime(stopped.at) ?? nowMs)}`,
      detail: 'The built-in sandbox is not running: nothing can answer; saved copies are shown. Start it in Settings.',
    }
  const all = view?.endpoints ?? []
  const known = all.filter((e) => e.state !== 'unknown')
  const name = (e: EndpointConnection): string => `${labelOf(e.network)} ${ENDPOINT[e.endpoint]}`
  const some = (list: EndpointConnection[]): string =>
    list.length === known.length ? '' : `${list.map(name).join(', ')}: `
  const failing = known.filter((e) => e.state === 'not-answering')
  if (failing.length) {
    const since = Math.min(...failing.map((e) => parseTime(e.since) ?? nowMs))
    const next = failing.map((e) => e.nextRetryAt).sort()[0] ?? null
    const prefix = some(failing)
    return {
      kind: 'not-answering',
      text: `${prefix}${prefix ? 'not' : 'Not'} answering since ${formatClock(since)}${retryWords(next, nowMs)}`,
      detail: failing.map((e) => `${name(e)}: ${e.reason ?? 'no answer'}`).join(' '),
    }
  }
  const refused = known.filter((e) => e.state === 'refused')
  if (refused.length) {
    const prefix = some(refused)
    return {
      kind: 'refused',
      text: `${prefix}${prefix ? 'key' : 'Key'} refused since ${formatClock(Math.min(...refused.map((e) => parseTime(e.since) ?? nowMs)))}`,
      detail: refused.map((e) => `${name(e)}: ${e.reason ?? 'refused'}`).join(' '),
    }
  }
  const quota = known.filter((e) => e.state === 'quota' && (parseTime(e.until) ?? 0) > nowMs)
  if (quota.length) {
    const until = Math.max(...quota.map((e) => parseTime(e.until) ?? nowMs))
    return {
      kind: 'quota',
      text: `Quota used up until ${utcClock(until)}`,
      detail: quota.map((e) => `${name(e)}: ${e.reason ?? 'quota used up'}`).join(' '),
    }
  }
  const answering = known.filter((e) => e.state === 'answering')
  if (answering.length) {
    const last = Math.max(...answering.map((e) => parseTime(e.lastSuccessAt) ?? 0))
    return { kind: 'online', text: 'Online', detail: `The service answered at ${formatClock(last)}.` }
  }
  return { kind: 'unknown', text: 'Not checked yet', detail: 'No call has gone to the service yet.' }
}

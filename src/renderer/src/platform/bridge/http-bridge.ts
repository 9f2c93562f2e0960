import {
  isBridgeEventName,
  type BridgeEventName,
  type BridgeEvents,
  type ChainscopeBridge,
} from '@shared/bridge/contract'
import { isBridgeError, type BridgeResult } from '@shared/bridge/errors'
import { isRecord } from '@shared/guards'
import { SESSION_HEADER, SESSION_QUERY } from '@shared/bridge/web-session'
import { webSessionKey } from './web-session'

type AnyListener = (payload: unknown) => void

/**
 * The bridge over HTTP to the web host: calls are POSTs to `/bridge/invoke`, events arrive
 * on one EventSource. The session cookie (HttpOnly, set from the opening URL) and the
 * session's bridge key (web-session.ts; a header, or the stream's query) authenticate.
 */
export function createHttpBridge(base = ''): ChainscopeBridge {
  const listeners = new Map<BridgeEventName, Set<AnyListener>>()
  let source: EventSource | null = null

  const connect = (): void => {
    if (source) return
    source = new EventSource(`${base}/bridge/events?${SESSION_QUERY}=${encodeURIComponent(webSessionKey())}`)
    source.onmessage = (message: MessageEvent<string>) => {
      let data: unknown
      try {
        data = JSON.parse(message.data)
      } catch {
        return
      }
      if (!isRecord(data) || !isBridgeEventName(data.event)) return
      for (const listener of listeners.get(data.event) ?? []) listener(data.payload)
    }
  }

  return {
    async invoke(name, input) {
      let response: Response
      try {
        response = await fetch(`${base}/bridge/invoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [SESSION_HEADER]: webSessionKey() },
          body: JSON.stringify({ name, input }),
          credentials: 'same-origin',
        })
      } catch {
        return {
          ok: false,
          error: { kind: 'offline', message: 'The Chainscope host is not answering. Is it still running?' },
        }
      }
      let body: unknown
      try {
        body = await response.json()
      } catch {
        body = null
      }
      return asBridgeResult(body, response.status)
    },
    on<E extends BridgeEventName>(event: E, listener: (payload: BridgeEvents[E]) => void) {
      connect()
      const set = listeners.get(event) ?? new Set<AnyListener>()
      listeners.set(event, set)
      // Listeners are kept per event name, and only that event's payloads reach them.
      set.add(listener as AnyListener)
      return () => set.delete(listener as AnyListener)
    },
  }
}

/**
 * The host's refusals (a stale per-run secret after a restart, a foreign Origin) are
 * `{ error, message }`, not bridge results: they become a `protocol` error carrying the host's
 * message, so callers always get a well-formed `BridgeResult`.
 */
function asBridgeResult(body: unknown, status: number): BridgeResult<never> {
  const b = isRecord(body) ? body : {}
  // A call without a value (`void`) arrives as `{ ok: true }`. The value is the same core's
  // answer, typed by the contract; the host is not a foreign party, so it is taken as is.
  if (b.ok === true) return { ok: true, value: b.value as never }
  if (b.ok === false && isBridgeError(b.error)) return { ok: false, error: b.error }
  const detail = typeof b.message === 'string' ? `: ${b.message}` : ' without a bridge result.'
  return { ok: false, error: { kind: 'protocol', message: `The Chainscope host answered ${status}${detail}` } }
}

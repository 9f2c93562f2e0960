import { isBridgeEventName, type BridgeEventName, type BridgeEvents, type ChainscopeBridge } from '@shared/bridge/contract'
import type { BridgeResult } from '@shared/bridge/errors'

type AnyListener = (payload: unknown) => void

/**
 * The bridge over HTTP to the web host: calls are POSTs to `/bridge/invoke`, events arrive
 * on one EventSource. The session cookie (HttpOnly, set from the opening URL) authenticates.
 */
export function createHttpBridge(base = ''): ChainscopeBridge {
  const listeners = new Map<BridgeEventName, Set<AnyListener>>()
  let source: EventSource | null = null

  const connect = (): void => {
    if (source) return
    source = new EventSource(`${base}/bridge/events`)
    source.onmessage = (message: MessageEvent<string>) => {
      let data: { event?: unknown; payload?: unknown }
      try {
        data = JSON.parse(message.data) as { event?: unknown; payload?: unknown }
      } catch {
        return
      }
      if (!isBridgeEventName(data.event)) return
      for (const listener of listeners.get(data.event) ?? []) listener(data.payload)
    }
  }

  return {
    async invoke(name, input) {
      let response: Response
      try {
        response = await fetch(`${base}/bridge/invoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name, input }),
          credentials: 'same-origin',
        })
      } catch {
        return { ok: false, error: { kind: 'offline', message: 'The Chainscope host is not answering. Is it still running?' } }
      }
      try {
        return (await response.json()) as BridgeResult<never>
      } catch {
        return { ok: false, error: { kind: 'protocol', message: `The Chainscope host answered ${response.status} without a bridge result.` } }
      }
    },
    on<E extends BridgeEventName>(event: E, listener: (payload: BridgeEvents[E]) => void) {
      connect()
      const set = listeners.get(event) ?? new Set<AnyListener>()
      listeners.set(event, set)
      set.add(listener as AnyListener)
      return () => set.delete(listener as AnyListener)
    },
  }
}

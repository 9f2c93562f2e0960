import { BRIDGE_GLOBAL, type ChainscopeBridge } from '@shared/bridge/contract'
import { createHttpBridge } from './http-bridge'

/**
 * The renderer's one way to main. In Electron the preload has put the bridge on `window`;
 * in the web host it is HTTP to the same origin. Nothing else in the renderer can tell.
 * The transport is picked on first use, so component tests can install a fake one first.
 */
function pickTransport(): ChainscopeBridge {
  // The preload's global is not declared on Window: the renderer also runs without it (web host).
  const exposed = (window as unknown as Record<string, ChainscopeBridge | undefined>)[BRIDGE_GLOBAL]
  return exposed ?? createHttpBridge()
}

let current: ChainscopeBridge | null = null

/** Replaces the transport (component tests install a fake bridge here). */
export function installBridge(transport: ChainscopeBridge): void {
  current = transport
}

function transport(): ChainscopeBridge {
  current ??= pickTransport()
  return current
}

export const bridge: ChainscopeBridge = {
  invoke: (name, input) => transport().invoke(name, input),
  on: (event, listener) => transport().on(event, listener),
}

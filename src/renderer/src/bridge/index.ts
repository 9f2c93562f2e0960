import { BRIDGE_GLOBAL, type ChainscopeBridge } from '@shared/bridge/contract'
import { createHttpBridge } from './http-bridge'

/**
 * The renderer's one way to main. In Electron the preload has put the bridge on `window`;
 * in the web host it is HTTP to the same origin. Nothing else in the renderer can tell.
 */
function pickTransport(): ChainscopeBridge {
  const exposed = (window as unknown as Record<string, ChainscopeBridge | undefined>)[BRIDGE_GLOBAL]
  return exposed ?? createHttpBridge()
}

export const bridge: ChainscopeBridge = pickTransport()

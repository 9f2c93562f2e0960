import type { BridgeResult } from './errors'
import type { BridgeCallInput, BridgeCallName, BridgeCallOutputs } from './call-types'
import type { BridgeEventName, BridgeEvents } from './events'

/** The interface both transports implement and the renderer uses. */
export interface ChainscopeBridge {
  invoke<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeResult<BridgeCallOutputs[K]>>
  on<E extends BridgeEventName>(event: E, listener: (payload: BridgeEvents[E]) => void): () => void
}

/** IPC channel names, in one place (docs/style.md rule 2). */
export const IPC_CHANNELS = {
  invoke: 'chainscope:invoke',
  event: 'chainscope:event',
} as const

/** The name under which the preload exposes the bridge on `window`. */
export const BRIDGE_GLOBAL = 'chainscope' as const

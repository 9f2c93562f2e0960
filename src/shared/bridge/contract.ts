/**
 * The one bridge contract (docs/style.md rule 2), one import for both sides. Every call the renderer may
 * make is listed in `bridgeCalls` (call-schemas.ts) with the schema main validates its input
 * against; `BridgeCallOutputs` (call-types.ts) gives each call's result type; `BridgeEvents`
 * (events.ts) lists what main pushes. Both transports (Electron IPC through the preload, HTTP in
 * the web host) implement `ChainscopeBridge` (transport.ts). The answer types live per area.
 */
export type * from './app-types'
export type * from './budget-types'
export type * from './call-types'
export type * from './connection-types'
export type * from './data-types'
export type * from './entity-types'
export type * from './lookup-types'
export type * from './profile-types'
export type * from './watch-types'
export * from './events'
export * from './transport'
export type { NetworkConfig } from '../domain/profile'

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BridgeCallInput, BridgeCallName, BridgeCallOutputs } from '@shared/bridge/contract'
import type { BridgeError } from '@shared/bridge/errors'
import type { Limits } from '@shared/domain/profile'
import { createCore, type Core } from '../app-core'
import type { RuntimeTuning } from '../profiles/profile-runtime'
import { testCoreOptions } from './core-options'

/**
 * A core in a fresh data folder whose active profile points at `serviceUrl` (a scripted server
 * on loopback) with `key` for the session: the bridge as the renderer calls it, against a
 * service a test controls. Test support only.
 */
export async function scriptedCore(options: {
  serviceUrl: string
  key: string
  limits?: Limits
  tuning?: RuntimeTuning
}): Promise<{
  core: Core
  /** The core's data folder (removed by `dispose`). */
  dir: string
  /** The active profile's id. */
  profileId: string
  /** A call that must succeed: its value. */
  call<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeCallOutputs[K]>
  /** A call's typed error, or 'ok' when it succeeded. */
  failure<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeError | 'ok'>
  dispose(): Promise<void>
}> {
  const dir = mkdtempSync(join(tmpdir(), 'scripted-core-'))
  const core = await createCore(testCoreOptions(dir, { tuning: options.tuning ?? {} }))
  async function call<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeCallOutputs[K]> {
    const r = await core.bridge.dispatch(name, input)
    if (!r.ok) throw new Error(`${name} failed: ${r.error.kind}: ${r.error.message}`)
    return r.value as BridgeCallOutputs[K]
  }
  async function failure<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeError | 'ok'> {
    const r = await core.bridge.dispatch(name, input)
    return r.ok ? 'ok' : r.error
  }
  const profile = await call('profiles.save', {
    name: 'Scripted',
    baseUrl: options.serviceUrl,
    rpcUrl: `${options.serviceUrl}/rpc`,
    networks: [
      { name: 'alpha', label: 'Alpha' },
      { name: 'beta', label: 'Beta' },
    ],
    ...(options.limits ? { limits: options.limits } : {}),
  })
  await call('profiles.activate', { id: profile.id })
  await call('key.set', { profileId: profile.id, key: options.key, sessionOnly: true })
  return {
    core,
    dir,
    profileId: profile.id,
    call,
    failure,
    dispose: async () => {
      await core.dispose()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

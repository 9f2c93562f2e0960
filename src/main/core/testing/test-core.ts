import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BridgeCallInput, BridgeCallName, BridgeCallOutputs } from '@shared/bridge/contract'
import { createCore, type Core, type CoreOptions } from '../app-core'
import type { SandboxLauncher } from '../sandbox/sandbox-launcher'
import { testCoreOptions } from './core-options'

/**
 * The core as the web host makes it, on a fresh data folder, with `launcher` as its sandbox and
 * no keychain (the sandbox's key is managed in memory); `call` throws a bridge error as text.
 * `extra` sets the options a test varies (freshness tuning, the desktop notifier). `dispose`
 * ends the core and removes the folder. Test support only.
 */
export async function testCore(
  launcher: SandboxLauncher,
  extra: Pick<CoreOptions, 'tuning' | 'notify'> = {},
): Promise<{
  core: Core
  /** The data folder. */
  dir: string
  call<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeCallOutputs[K]>
  dispose(): Promise<void>
}> {
  const dir = mkdtempSync(join(tmpdir(), 'test-core-'))
  const core = await createCore(testCoreOptions(dir, { sandboxLauncher: launcher, ...extra }))
  return {
    core,
    dir,
    call: async (name, input) => {
      const r = await core.bridge.dispatch(name, input)
      if (!r.ok) throw new Error(`${name}: ${r.error.kind}: ${r.error.message}`)
      return r.value as never
    },
    dispose: async () => {
      await core.dispose()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BridgeCallInput, BridgeCallName, BridgeCallOutputs } from '@shared/bridge/contract'
import { createCore, type Core } from '../app-core'
import type { SandboxLauncher } from '../sandbox/sandbox-launcher'
import { Redactor } from '../util/logger'

/**
 * The core as the web host makes it, on a fresh data folder, with `launcher` as its sandbox and
 * no keychain (the sandbox's key is managed in memory); `call` throws a bridge error as text.
 * `dispose` ends the core and removes the folder. Test support only.
 */
export async function testCore(launcher: SandboxLauncher): Promise<{
  core: Core
  call<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeCallOutputs[K]>
  dispose(): Promise<void>
}> {
  const dir = mkdtempSync(join(tmpdir(), 'test-core-'))
  const core = await createCore({
    host: 'web',
    version: 'test',
    platform: process.platform,
    dataDir: dir,
    log: { info() {}, warn() {}, error() {} },
    redactor: new Redactor(),
    sandboxLauncher: launcher,
    keychain: () => Promise.reject(new Error('the sandbox key is managed in memory')),
  })
  return {
    core,
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

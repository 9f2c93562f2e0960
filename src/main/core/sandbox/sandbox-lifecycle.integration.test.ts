import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BridgeCallInput, BridgeCallName, BridgeCallOutputs, BridgeEventName } from '@shared/bridge/contract'
import type { BridgeError } from '@shared/bridge/errors'
import { SANDBOX_PROFILE_ID } from '@shared/domain/profile'
import { createCore, type Core } from '../app-core'
import { testCoreOptions } from '../testing/core-options'
import { admin, capturingLauncher, tsxSandboxLauncher } from '../testing/sandbox-harness'
import { SANDBOX_LIVE_DIR } from './sandbox-launcher'

/**
 * Stop, Start, a crash and Reset through the bridge, against the real sandbox keeping its chains
 * in the data folder (issue 38): what was on the chain before a stop or a crash is there after
 * Start, so the cache and the chain agree; only Reset goes back to the seed, and it clears the
 * sandbox profile's cache with it.
 */
let dir: string
let core: Core
const events: { event: BridgeEventName; payload: unknown }[] = []
let launcher: ReturnType<typeof capturingLauncher>

async function call<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeCallOutputs[K]> {
  const result = await core.bridge.dispatch(name, input)
  if (!result.ok) throw new Error(`${name} failed: ${result.error.kind}: ${result.error.message}`)
  return result.value as BridgeCallOutputs[K]
}
async function failure<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeError> {
  const result = await core.bridge.dispatch(name, input)
  if (result.ok) throw new Error(`${name} succeeded but should have failed`)
  return result.error
}
const head = async (): Promise<number> =>
  Number((await call('rpc.call', { network: 'alpha', method: 'eth_blockNumber' })).result)
const hashesOf = async (address: string, cacheOnly = false): Promise<string[]> =>
  (await call('data.transactions', { network: 'alpha', address, cacheOnly, refresh: !cacheOnly })).items.map(
    (t) => t.hash,
  )
const lastStatus = (): unknown => events.filter((e) => e.event === 'sandbox').at(-1)?.payload

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-lifecycle-'))
  launcher = capturingLauncher(
    tsxSandboxLauncher(['--admin', '--block-time', '0'], { liveStateDir: join(dir, SANDBOX_LIVE_DIR) }),
  )
  core = await createCore(testCoreOptions(dir, { sandboxLauncher: launcher }))
  core.bridge.subscribe((event, payload) => events.push({ event, payload }))
}, 300_000)
afterAll(async () => {
  await core?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

describe('the sandbox through Stop, Start, a crash and Reset', { timeout: 300_000 }, () => {
  let seedHead: number
  let block: number
  let hash: string
  let empty: string

  it('keeps a block and a transaction made before Stop after Start, without starting on its own in between', async () => {
    await call('profiles.activate', { id: SANDBOX_PROFILE_ID })
    seedHead = await head()
    empty = launcher.info!.demo_addresses.alpha!.empty!
    const moved = (await admin(launcher.info!).transfer({ network: 'alpha', to: empty, after: 2 })) as {
      block: number
      hash: string
    }
    block = moved.block
    hash = moved.hash
    expect(block).toBeGreaterThan(seedHead + 2)
    expect(await hashesOf(empty)).toContain(hash)

    const first = launcher.running
    expect(await call('sandbox.stop', {})).toMatchObject({ state: 'stopped', unexpected: false })
    expect(await failure('rpc.call', { network: 'alpha', method: 'eth_blockNumber' })).toMatchObject({
      kind: 'offline',
      message: expect.stringMatching(/is stopped/),
    })
    expect(launcher.running).toBe(first)
    // The connection truth says it is stopped, not the last success before the stop.
    expect(await call('connection.get', {})).toMatchObject({ sandboxStopped: { unexpected: false } })
    // The cache still answers while it is stopped.
    expect(await hashesOf(empty, true)).toContain(hash)

    expect(await call('sandbox.start', {})).toMatchObject({ state: 'starting' })
    expect(await head()).toBe(block)
    expect(await hashesOf(empty)).toContain(hash)
  })

  it('after a crash (SIGKILL) it says so, stays stopped, and Start resumes the saved chain', async () => {
    const crashed = launcher.running!
    process.kill(crashed.pid!, 'SIGKILL')
    await expect.poll(lastStatus).toMatchObject({ state: 'stopped', unexpected: true, stoppedAt: expect.any(String) })
    expect(await failure('rpc.call', { network: 'alpha', method: 'eth_blockNumber' })).toMatchObject({
      message: expect.stringMatching(/stopped unexpectedly/),
    })
    // Choosing the profile again does not start it either; it hears the status again.
    const before = events.length
    await call('profiles.activate', { id: SANDBOX_PROFILE_ID })
    expect(events.slice(before).filter((e) => e.event === 'sandbox')).toEqual([
      { event: 'sandbox', payload: expect.objectContaining({ state: 'stopped', unexpected: true }) },
    ])
    expect(launcher.running).toBe(crashed)
    expect(await call('connection.get', {})).toMatchObject({ sandboxStopped: { unexpected: true } })
    await call('sandbox.start', {})
    expect(await head()).toBe(block)
    expect(await call('connection.get', {})).toMatchObject({ sandboxStopped: null })
    expect(await hashesOf(empty)).toContain(hash)
  })

  it('Reset goes back to the seed and clears the profile cache', async () => {
    // The header's heights are watched (a visible window): after the reset they follow the new chain.
    await call('app.setVisible', { visible: true })
    const alphaHeight = async (): Promise<string | null> =>
      (await call('height.get', {})).find((h) => h.network === 'alpha')?.height ?? null
    await expect.poll(alphaHeight, { timeout: 30_000 }).toBe(String(block))
    expect(existsSync(join(dir, 'snapshots', SANDBOX_PROFILE_ID))).toBe(true)
    expect(await failure('sandbox.reset', {} as never)).toMatchObject({ kind: 'invalid-input' })
    expect(await call('sandbox.reset', { confirm: true })).toMatchObject({ state: 'starting' })
    expect(existsSync(join(dir, 'snapshots', SANDBOX_PROFILE_ID))).toBe(false)
    expect(await head()).toBe(seedHead)
    expect(await hashesOf(empty)).not.toContain(hash)
    await expect.poll(alphaHeight, { timeout: 30_000 }).toBe(String(seedHead))
  })
})

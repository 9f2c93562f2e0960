import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BridgeCallInput, BridgeCallName, BridgeCallOutputs } from '@shared/bridge/contract'
import type { BridgeError } from '@shared/bridge/errors'
import { createCore, type Core } from '../app-core'
import { testCoreOptions } from '../testing/core-options'
import { capturingLauncher, tsxSandboxLauncher } from '../testing/sandbox-harness'

/**
 * Refusals told as what they are, against the real sandbox run with `--plain-errors` (plain-text 401 and 429,
 * no Retry-After, as many providers answer): repeated refusals, a quota refusal the client's
 * own count disagrees with, and a rejected key, each told plainly.
 */
let dir: string
let core: Core
const launcher = capturingLauncher(
  tsxSandboxLauncher(['--plain-errors', '--rate', '2', '--burst', '1', '--quota', '12']),
)

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'refusal-'))
  core = await createCore(
    testCoreOptions(dir, {
      sandboxLauncher: launcher,
      // One attempt each: the test counts refusals, not retries.
      tuning: { client: { maxAttempts: 1 } },
    }),
  )
  await call('profiles.activate', { id: 'sandbox' })
  await call('rpc.call', { network: 'alpha', method: 'eth_blockNumber', params: [] })
}, 300_000)
afterAll(async () => {
  await core?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

async function call<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeCallOutputs[K]> {
  const r = await core.bridge.dispatch(name, input)
  if (!r.ok) throw new Error(`${name} failed: ${r.error.kind}: ${r.error.message}`)
  return r.value as BridgeCallOutputs[K]
}
async function outcome<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeError | null> {
  const r = await core.bridge.dispatch(name, input)
  return r.ok ? null : r.error
}
const blockNumber: BridgeCallInput<'rpc.call'> = { network: 'alpha', method: 'eth_blockNumber', params: [] }

describe('service-side refusal told plainly (--plain-errors)', () => {
  it('repeated plain-text 429s: "the service is refusing requests (since HH:MM, N refused)", also in the limiter state', async () => {
    const states: BridgeCallOutputs['limiter.state'][] = []
    const errors = await Promise.all(Array.from({ length: 4 }, () => outcome('rpc.call', blockNumber)))
    states.push(await call('limiter.state', {}))
    const refused = errors.filter((e): e is BridgeError => e !== null)
    expect(refused.length).toBeGreaterThanOrEqual(2)
    expect(refused.every((e) => e.kind === 'rate-limited')).toBe(true)
    expect(refused.map((e) => e.message)).toContainEqual(
      expect.stringMatching(/^The service is refusing requests \(since \d\d:\d\d UTC, [2-9] refused\)/),
    )
    // Not taken for a quota refusal: the meter still shows the client's own count.
    expect(states[0]!.leftToday).toBeGreaterThan(900)
  })

  it('a quota-shaped plain-text 429: "daily quota used up at the service until 00:00 UTC", and the meter follows the service', async () => {
    let last: BridgeError | null = null
    for (let i = 0; i < 40 && last?.kind !== 'quota-exhausted'; i++) last = await outcome('rpc.call', blockNumber)
    expect(last).toMatchObject({
      kind: 'quota-exhausted',
      message: 'Daily quota used up at the service until 00:00 UTC.',
    })
    const state = await call('limiter.state', {})
    expect(state.leftToday).toBe(0)
    expect(state.usedToday).toBe(state.quotaPerDay)
  }, 60_000)

  it('a plain-text 401: "key rejected — fix the key"', async () => {
    const info = launcher.info!
    const profile = await call('profiles.save', {
      name: 'Wrong key',
      baseUrl: info.base_url,
      rpcUrl: info.rpc_url,
      networks: [
        { name: 'alpha', label: 'Alpha' },
        { name: 'beta', label: 'Beta' },
      ],
    })
    await call('profiles.activate', { id: profile.id })
    await call('key.set', { profileId: profile.id, key: 'not-the-sandbox-key-0000', sessionOnly: true })
    expect(await outcome('rpc.call', blockNumber)).toMatchObject({
      kind: 'auth',
      message: expect.stringMatching(/^Key rejected — fix the key/),
    })
    expect(await outcome('key.test', { profileId: profile.id })).toMatchObject({
      kind: 'auth',
      message: expect.stringMatching(/^Key rejected — fix the key/),
    })
  })
})

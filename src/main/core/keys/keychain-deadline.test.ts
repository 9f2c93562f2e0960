import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * A keychain that never answers. The probe (testing/keychain-probe.ts) runs
 * the real keytar in a child process; its D-Bus is a local socket that accepts and never
 * replies, as an autolaunched bus without a Secret Service does. Under scripts/with-keyring.sh
 * the same probe meets the real gnome-keyring.
 */
const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..')
const PROBE = join(ROOT, 'src/main/core/keys/testing/keychain-probe.ts')
let dir: string
let silentBus: Server
const connections = new Set<Socket>()

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'silent-bus-'))
  // Accepts every connection and never says a word.
  silentBus = createServer((socket) => connections.add(socket))
  await new Promise<void>((r) => silentBus.listen(join(dir, 'bus'), () => r()))
})
afterAll(async () => {
  for (const socket of connections) socket.destroy()
  await new Promise<void>((r) => silentBus.close(() => r()))
  rmSync(dir, { recursive: true, force: true })
})

type Steps = Record<string, { ms: number; value?: Record<string, unknown>; error?: unknown }>

function probe(env: NodeJS.ProcessEnv): Promise<Steps> {
  return new Promise((resolveSteps, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', PROBE, `ChainscopeProbe-${randomBytes(4).toString('hex')}`, '1000'],
      { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    let err = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    child.on('exit', (code) => {
      try {
        resolveSteps(JSON.parse(out) as Steps)
      } catch {
        reject(new Error(`probe exited ${code} without an answer:\n${err}`))
      }
    })
  })
}

describe('keychain deadline', () => {
  it('a Secret Service that never answers: status and set answer within the deadline, the key is kept for the session', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dir, 'bus')}` }
    const steps = await probe(env)
    expect(steps.statusBefore?.value).toMatchObject({
      keychainAvailable: false,
      keychainProblem: expect.stringMatching(/did not answer within 1 s/),
      set: false,
    })
    expect(steps.set?.value).toMatchObject({ set: true, storage: 'session', last4: 'ABCD', keychainAvailable: false })
    expect(steps.statusAfter?.value).toMatchObject({ set: true, storage: 'session' })
    // Not asked again after the first miss: the later steps do not wait another deadline each.
    for (const name of ['set', 'statusAfter', 'clear']) expect(steps[name]!.ms).toBeLessThan(1000)
  }, 30_000)

  it('the real keyring (scripts/with-keyring.sh) still stores the key in the keychain', async () => {
    expect(
      process.env.CHAINSCOPE_KEYRING,
      'run through scripts/with-keyring.sh so a real gnome-keyring is present',
    ).toBe('ready')
    const steps = await probe({ ...process.env })
    expect(steps.statusBefore?.value).toMatchObject({ keychainAvailable: true })
    expect(steps.set?.value).toMatchObject({ set: true, storage: 'keychain' })
    expect(steps.clear?.value).toMatchObject({ set: false })
  }, 30_000)
})

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { SandboxManager, type SandboxStatus } from './sandbox-manager'
import { childProcessSandboxLauncher } from './sandbox-process'
import type { LaunchOptions, RunningSandbox, SandboxLauncher } from './sandbox-launcher'
import { SANDBOX_READY } from '../testing/sandbox-ready'

/**
 * Stop, start, reset, and a sandbox that dies (issue 38), against real child processes that
 * speak the sandbox's start-up protocol; a crash is a SIGKILL from outside the manager.
 */
let dir: string
const READY = SANDBOX_READY
const NOW = Date.parse('2026-11-27T07:33:12Z')

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-lifecycle-'))
  writeFileSync(
    join(dir, 'ready.mjs'),
    `process.on('SIGTERM', () => process.exit(0))
process.stdout.write(${JSON.stringify(JSON.stringify(READY))} + '\\n')
setInterval(() => {}, 1000)
`,
  )
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

interface Rig {
  manager: SandboxManager
  statuses: SandboxStatus[]
  launches: LaunchOptions[]
  running: RunningSandbox[]
  events: string[]
}

const rigs: Rig[] = []
afterEach(async () => {
  await Promise.all(rigs.splice(0).map((r) => r.manager.dispose()))
})

function rig(): Rig {
  const inner = childProcessSandboxLauncher({ args: [join(dir, 'ready.mjs')] })
  const r: Rig = { statuses: [], launches: [], running: [], events: [], manager: null! }
  const launcher: SandboxLauncher = {
    launch: async (options) => {
      r.launches.push({ fresh: options.fresh })
      const running = await inner.launch(options)
      r.running.push(running)
      return running
    },
  }
  r.manager = new SandboxManager({
    launcher,
    onReady: () => r.events.push('ready'),
    onGone: () => r.events.push('gone'),
    onStatus: (s) => r.statuses.push(s),
    clearCache: async () => {
      r.events.push('cache cleared')
    },
    now: () => NOW,
  })
  rigs.push(r)
  return r
}

/** A crash: the sandbox's process is killed from outside, without the manager's stop. */
async function kill(running: RunningSandbox): Promise<void> {
  process.kill(running.pid!, 'SIGKILL')
  await running.exited
}

describe('SandboxManager lifecycle', () => {
  it('a sandbox that dies is reported stopped unexpectedly, with its time, and not started again until Start', async () => {
    const r = rig()
    await r.manager.ensure()
    await kill(r.running[0]!)
    await vi.waitFor(() =>
      expect(r.manager.status).toMatchObject({
        state: 'stopped',
        unexpected: true,
        stoppedAt: '2026-11-27T07:33:12.000Z',
        message: expect.stringMatching(/stopped unexpectedly \(ended by a signal\)\. Start it again in Settings/),
      }),
    )
    expect(r.events).toEqual(['ready', 'gone'])
    // Every use is refused, saying why, and none starts it.
    await expect(r.manager.ensure()).rejects.toMatchObject({
      kind: 'offline',
      message: expect.stringMatching(/stopped unexpectedly/),
    })
    const said = r.statuses.length
    await expect(r.manager.ensure()).rejects.toMatchObject({ kind: 'offline' })
    expect(r.launches).toHaveLength(1)
    // A refused use says nothing new; resend() (an activation) says the status again.
    expect(r.statuses).toHaveLength(said)
    r.manager.resend()
    expect(r.statuses.slice(said)).toEqual([expect.objectContaining({ state: 'stopped', unexpected: true })])

    await r.manager.start()
    expect(r.launches).toEqual([{ fresh: false }, { fresh: false }])
    expect(r.manager.status).toMatchObject({ state: 'ready' })
  })

  it("the user's Stop keeps it stopped (not unexpected) until Start, which resumes rather than resets", async () => {
    const r = rig()
    await r.manager.ensure()
    await r.manager.stop()
    await r.running[0]!.exited
    expect(r.manager.status).toMatchObject({
      state: 'stopped',
      unexpected: false,
      stoppedAt: '2026-11-27T07:33:12.000Z',
    })
    await expect(r.manager.ensure()).rejects.toMatchObject({ message: expect.stringMatching(/is stopped/) })
    expect(r.launches).toHaveLength(1)
    await r.manager.start()
    expect(r.launches.at(-1)).toEqual({ fresh: false })
    expect(r.events).toEqual(['ready', 'gone', 'ready'])
  })

  it('Reset stops it, clears the cache, then starts it fresh from the seed', async () => {
    const r = rig()
    await r.manager.ensure()
    await r.manager.reset()
    expect(r.events).toEqual(['ready', 'gone', 'cache cleared'])
    await r.manager.ensure()
    expect(r.launches.at(-1)).toEqual({ fresh: true })
    expect(r.events.at(-1)).toBe('ready')
    // Once a fresh start succeeded, the next start resumes again.
    await r.manager.stop()
    await r.manager.start()
    expect(r.launches.at(-1)).toEqual({ fresh: false })
  })
})

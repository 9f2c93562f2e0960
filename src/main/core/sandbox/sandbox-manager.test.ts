import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SandboxManager, type SandboxStatus } from './sandbox-manager'
import { slowToStopChild } from '../testing/slow-to-stop-child'
import { childProcessSandboxLauncher } from './sandbox-process'
import { SANDBOX_READY } from '../testing/sandbox-ready'

/**
 * The manager's status events while a sandbox starts, against a real child process that
 * speaks the start-up protocol with both networks reporting progress interleaved.
 */
let dir: string
const READY = SANDBOX_READY

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-manager-'))
  const line = (p: object): string => `process.stderr.write('sandbox-progress ${JSON.stringify(p)}\\n')`
  writeFileSync(
    join(dir, 'two-networks.mjs'),
    [
      line({ stage: 'seeding', network: 'alpha', done: 1, total: 4 }),
      line({ stage: 'loading', network: 'beta' }),
      line({ stage: 'seeding', network: 'alpha', done: 3, total: 4 }),
      `setTimeout(() => process.stdout.write(${JSON.stringify(JSON.stringify(READY))} + '\\n'), 100)`,
      `process.on('SIGTERM', () => process.exit(0))`,
      'setInterval(() => {}, 1000)',
    ].join('\n'),
  )
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('SandboxManager progress', () => {
  it('keeps the latest stage of each network while starting, and clears them when ready', async () => {
    const statuses: SandboxStatus[] = []
    const manager = new SandboxManager({
      launcher: childProcessSandboxLauncher({ args: [join(dir, 'two-networks.mjs')] }),
      onReady: () => {},
      onGone: () => {},
      onStatus: (s) => statuses.push(s),
    })
    try {
      await manager.ensure()
      const starting = statuses.filter((s) => s.state === 'starting')
      expect(starting.at(-1)?.stages).toEqual([
        { stage: 'seeding', network: 'alpha', done: 3, total: 4 },
        { stage: 'loading', network: 'beta' },
      ])
      expect(starting.at(-1)?.message).toBe('Preparing the sandbox (seeding alpha: 3 of 4)…')
      expect(statuses.at(-1)).toMatchObject({ state: 'ready', progress: null })
      expect(statuses.at(-1)?.stages ?? null).toBeNull()
    } finally {
      await manager.dispose()
    }
  })
})

describe('SandboxManager dispose', () => {
  it('while the sandbox is starting: the start is cancelled, and dispose ends once its child is gone', async () => {
    const child = slowToStopChild(dir, 'starting')
    const manager = new SandboxManager({
      launcher: childProcessSandboxLauncher({ args: child.args }),
      onReady: () => {},
      onGone: () => {},
      onStatus: () => {},
    })
    const start = manager.ensure()
    start.catch(() => {})
    const pid = await child.pid()
    await manager.dispose()
    expect(() => process.kill(pid, 0)).toThrow()
    await expect(start).rejects.toMatchObject({ kind: 'cancelled' })
  })
})

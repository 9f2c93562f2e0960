import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { slowToStopChild } from '../testing/slow-to-stop-child'
import type { Logger } from '../util/logger'
import { childProcessSandboxLauncher } from './sandbox-process'
import type { SandboxProgress } from './sandbox-launcher'
import { SANDBOX_READY } from '../testing/sandbox-ready'

/**
 * The launcher against real child processes: small scripts that speak the sandbox's
 * start-up protocol (sandbox/README.md), so every path (ready, progress, early exit, bad
 * line, stop) is exercised without the chains. The real sandbox is covered by
 * service.integration.test.ts.
 */
let dir: string
const READY = SANDBOX_READY

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sandbox-launcher-'))
  writeFileSync(
    join(dir, 'good.mjs'),
    // The SIGTERM handler comes before the ready line, as in sandbox/cli.ts: a stop that follows
    // the ready line at once must find it.
    `process.on('SIGTERM', () => { process.stderr.write('bye\\n'); process.exit(0) })
process.stderr.write('booting\\n')
process.stderr.write('sandbox-progress {"stage":"seeding","network":"alpha","done":1,"total":2}\\n')
process.stdout.write('not json at all\\n')
process.stdout.write(${JSON.stringify(JSON.stringify(READY))} + '\\n')
setInterval(() => {}, 1000)
`,
  )
  writeFileSync(join(dir, 'fails.mjs'), `process.stderr.write('anvil not found\\n'); process.exit(3)\n`)
  writeFileSync(
    join(dir, 'stubborn.mjs'),
    `process.stdout.write(${JSON.stringify(JSON.stringify(READY))} + '\\n'); process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)\n`,
  )
  writeFileSync(join(dir, 'silent.mjs'), `setInterval(() => {}, 1000)\n`)
  writeFileSync(
    join(dir, 'wrong.mjs'),
    `process.stdout.write('{"base_url":"ftp://x"}\\n'); setTimeout(() => process.exit(0), 50)\n`,
  )
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const lines: string[] = []
const log: Logger = { info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) }

describe('childProcessSandboxLauncher', () => {
  it('reads the ready line, reports progress, logs stderr and stops the child', async () => {
    const progress: SandboxProgress[] = []
    const running = await childProcessSandboxLauncher({ args: [join(dir, 'good.mjs')], log }).launch({
      onProgress: (p) => progress.push(p),
    })
    expect(running.info).toEqual(READY)
    expect(progress).toEqual([{ stage: 'seeding', network: 'alpha', done: 1, total: 2 }])
    expect(lines).toContain('sandbox: booting')
    // The unexpected stdout line is noted without its content.
    expect(lines.some((l) => /unexpected line on stdout/.test(l))).toBe(true)
    await running.stop()
    expect(await running.exited).toEqual({ code: 0 })
  })

  it('fails with the last stderr lines when the sandbox exits before it is ready', async () => {
    await expect(childProcessSandboxLauncher({ args: [join(dir, 'fails.mjs')] }).launch({})).rejects.toMatchObject({
      kind: 'offline',
      message: expect.stringMatching(/stopped before it was ready \(exit 3\): anvil not found/),
    })
  })

  it('refuses a ready line that does not match the protocol', async () => {
    await expect(childProcessSandboxLauncher({ args: [join(dir, 'wrong.mjs')] }).launch({})).rejects.toMatchObject({
      kind: 'offline',
    })
  })

  it('gives up after the ready timeout and kills the child', async () => {
    await expect(
      childProcessSandboxLauncher({ args: [join(dir, 'silent.mjs')], readyTimeoutMs: 300 }).launch({}),
    ).rejects.toMatchObject({
      kind: 'offline',
      message: expect.stringMatching(/did not get ready/),
    })
  })

  it('can be cancelled while starting', async () => {
    const controller = new AbortController()
    const started = childProcessSandboxLauncher({ args: [join(dir, 'silent.mjs')] }).launch({
      signal: controller.signal,
    })
    controller.abort()
    await expect(started).rejects.toMatchObject({ kind: 'cancelled' })
  })

  it('answers a cancelled start only once its child is gone', async () => {
    const child = slowToStopChild(dir, 'cancelled')
    const controller = new AbortController()
    const started = childProcessSandboxLauncher({ args: child.args }).launch({ signal: controller.signal })
    const pid = await child.pid()
    controller.abort()
    await expect(started).rejects.toMatchObject({ kind: 'cancelled' })
    expect(() => process.kill(pid, 0)).toThrow()
  })

  it('kills a sandbox that ignores SIGTERM', async () => {
    const running = await childProcessSandboxLauncher({ args: [join(dir, 'stubborn.mjs')], stopTimeoutMs: 200 }).launch(
      {},
    )
    await running.stop()
    expect(await running.exited).toEqual({ code: null })
  })
})

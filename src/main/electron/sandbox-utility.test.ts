import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Redactor, type Logger } from '../core/util/logger'
import { createUtilitySandboxLauncher } from './sandbox-utility'
import { FakeUtilityProcess, resetFakeElectron, utilityProcess } from './testing/fake-electron'

vi.mock('electron', () => import('./testing/fake-electron'))

const READY = {
  base_url: 'http://127.0.0.1:40123',
  rpc_url: 'http://127.0.0.1:40123/rpc',
  networks: ['alpha', 'beta'],
  api_key: 'sandbox-key-0123456789',
  demo_addresses: { alpha: { whale: '0x1' }, beta: { whale: '0x2' } },
}

let log: Logger & { lines: string[] }
let redactor: Redactor
let child: FakeUtilityProcess

beforeEach(() => {
  resetFakeElectron()
  vi.useFakeTimers()
  const lines: string[] = []
  redactor = new Redactor()
  // Lines pass through the redactor exactly as the real logger does.
  log = {
    lines,
    info: (m) => lines.push(redactor.redact(m)),
    warn: (m) => lines.push(redactor.redact(m)),
    error: (m) => lines.push(redactor.redact(m)),
  }
  utilityProcess.fork.mockImplementation(() => (child = new FakeUtilityProcess()))
})
afterEach(() => vi.useRealTimers())

const launcher = (quietTimeoutMs = 5000) =>
  createUtilitySandboxLauncher({
    modulePath: '/app/out/main/sandbox.js',
    stateDir: '/data/sandbox',
    log,
    redactor,
    quietTimeoutMs,
    stopTimeoutMs: 1000,
  })

describe('utility-process sandbox launcher', () => {
  it('forks the built sandbox with a free port and its state folder, stdio piped', async () => {
    const starting = launcher().launch({})
    child.stdout.write(`${JSON.stringify(READY)}\n`)
    const sandbox = await starting
    expect(utilityProcess.fork).toHaveBeenCalledWith(
      '/app/out/main/sandbox.js',
      ['--port', '0', '--state-dir', '/data/sandbox'],
      expect.objectContaining({ stdio: 'pipe' }),
    )
    expect(sandbox.info).toEqual(READY)
  })

  it('reports progress lines and logs other stderr lines, never the key', async () => {
    const onProgress = vi.fn()
    const starting = launcher().launch({ onProgress })
    child.stderr.write('sandbox-progress {"stage":"seeding","network":"alpha","done":120,"total":2600}\n')
    child.stderr.write('sandbox-progress not json\n')
    child.stderr.write('anvil alpha listening\n')
    child.stdout.write(`${JSON.stringify(READY)}\n`)
    await starting
    child.stderr.write(`served a request for ${READY.api_key}\n`)
    await vi.advanceTimersByTimeAsync(0)
    expect(onProgress).toHaveBeenCalledExactlyOnceWith({ stage: 'seeding', network: 'alpha', done: 120, total: 2600 })
    expect(log.lines).toContain('sandbox: anvil alpha listening')
    expect(log.lines.join('\n')).not.toContain(READY.api_key)
  })

  it('fails with a typed error when the sandbox exits before it is ready', async () => {
    const starting = launcher().launch({})
    child.stderr.write('Error: no anvil binary\n')
    await vi.advanceTimersByTimeAsync(0)
    child.exit(1)
    await expect(starting).rejects.toMatchObject({
      kind: 'offline',
      message: expect.stringContaining(
        'stopped before it was ready (exit 1). Its last message: Error: no anvil binary',
      ),
    })
  })

  it('ignores stdout lines that are not the ready line, without logging their text', async () => {
    const starting = launcher().launch({})
    child.stdout.write('{"base_url":"nope"}\n')
    child.stdout.write('debug sk-0123456789abcdef\n')
    child.stdout.write(`${JSON.stringify(READY)}\n`)
    await expect(starting).resolves.toMatchObject({ info: READY })
    expect(log.lines.filter((l) => l.includes('unexpected line on stdout'))).toHaveLength(2)
    expect(log.lines.join('\n')).not.toContain('sk-0123456789abcdef')
  })

  it('gives up when the sandbox stays silent, but not while it reports progress', async () => {
    const starting = launcher(5000).launch({})
    const outcome = starting.then(
      () => 'ready',
      (e: { kind: string }) => e.kind,
    )
    await vi.advanceTimersByTimeAsync(4000)
    child.stderr.write('sandbox-progress {"stage":"seeding"}\n')
    await vi.advanceTimersByTimeAsync(4000)
    child.stderr.write('sandbox-progress {"stage":"seeding"}\n')
    await vi.advanceTimersByTimeAsync(4999)
    expect(child.kill).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(child.kill).toHaveBeenCalled()
    // The failure is told once the child is gone.
    child.exit(0)
    expect(await outcome).toBe('offline')
  })

  it('stops starting when cancelled, and says so once the child is gone', async () => {
    const controller = new AbortController()
    let answered: string | null = null
    const starting = launcher().launch({ signal: controller.signal })
    void starting.catch((e: { kind: string }) => (answered = e.kind))
    controller.abort()
    expect(child.kill).toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(100)
    expect(answered).toBeNull()
    child.exit(0)
    await expect(starting).rejects.toMatchObject({ kind: 'cancelled' })
  })

  it('stop() kills the process and waits for it to exit; stopAll stops every running sandbox', async () => {
    const sandboxes = launcher()
    const starting = sandboxes.launch({})
    child.stdout.write(`${JSON.stringify(READY)}\n`)
    const sandbox = await starting
    const first = child
    const stopping = sandboxes.stopAll()
    expect(first.kill).toHaveBeenCalled()
    first.exit(0)
    await stopping
    expect(await sandbox.exited).toEqual({ code: 0 })
  })

  it('stopAll also stops a sandbox that is still starting (the app quits mid-start)', async () => {
    const sandboxes = launcher()
    const starting = sandboxes.launch({})
    const stopping = sandboxes.stopAll()
    expect(child.kill).toHaveBeenCalled()
    child.exit(0)
    await stopping
    await expect(starting).rejects.toMatchObject({ kind: 'offline' })
  })

  it('stop() gives up waiting after the stop timeout', async () => {
    const starting = launcher().launch({})
    child.stdout.write(`${JSON.stringify(READY)}\n`)
    const sandbox = await starting
    let done = false
    void sandbox.stop().then(() => (done = true))
    await vi.advanceTimersByTimeAsync(999)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(done).toBe(true)
  })
})

describe('bundled seeded state', () => {
  /** A shipped seed in `base`: one state, with a lock, a temporary and scratch files beside it. */
  function shippedSeed(base: string): string {
    const seed = join(base, 'resources', 'sandbox-state')
    for (const dir of ['7001-abc', '7001-abc.lock', '7001-abc.tmp-123', 'scratch'])
      mkdirSync(join(seed, dir), { recursive: true })
    writeFileSync(join(seed, '7001-abc', 'manifest.json'), '{"ok":true}')
    writeFileSync(join(seed, 'scratch', 'x.mts'), 'x')
    return seed
  }

  it('is copied into an empty state folder once, without locks, temporaries or scratch files', async () => {
    vi.useRealTimers()
    const base = mkdtempSync(join(tmpdir(), 'chainscope-seed-'))
    try {
      const seed = shippedSeed(base)
      const stateDir = join(base, 'data', 'sandbox')
      const launch = (): Promise<unknown> => {
        const sandboxes = createUtilitySandboxLauncher({
          modulePath: '/app/sandbox.js',
          stateDir,
          seedStateDir: seed,
          log,
          redactor,
        })
        const starting = sandboxes.launch({})
        return starting
      }
      // Hang guards, not timing checks: the fork follows a real copy of the seed, which
      // can take longer than waitFor's 1 s default on a busy machine.
      const guard = { timeout: 20_000, interval: 50 }
      const first = launch()
      await vi.waitFor(() => expect(utilityProcess.fork).toHaveBeenCalledTimes(1), guard)
      child.stdout.write(`${JSON.stringify(READY)}\n`)
      await first
      expect(readFileSync(join(stateDir, '7001-abc', 'manifest.json'), 'utf8')).toBe('{"ok":true}')
      expect(existsSync(join(stateDir, '7001-abc.lock'))).toBe(false)
      expect(existsSync(join(stateDir, '7001-abc.tmp-123'))).toBe(false)
      expect(existsSync(join(stateDir, 'scratch'))).toBe(false)

      // A state the user's sandbox already has is never overwritten.
      writeFileSync(join(stateDir, '7001-abc', 'manifest.json'), '{"mine":true}')
      const second = launch()
      await vi.waitFor(() => expect(utilityProcess.fork).toHaveBeenCalledTimes(2), guard)
      child.stdout.write(`${JSON.stringify(READY)}\n`)
      await second
      expect(readFileSync(join(stateDir, '7001-abc', 'manifest.json'), 'utf8')).toBe('{"mine":true}')
    } finally {
      rmSync(base, { recursive: true, force: true })
    }
  })

  it('a start cancelled during the copy (the app quits on its first run) forks nothing', async () => {
    vi.useRealTimers()
    const base = mkdtempSync(join(tmpdir(), 'chainscope-seed-'))
    try {
      const controller = new AbortController()
      const starting = createUtilitySandboxLauncher({
        modulePath: '/app/sandbox.js',
        stateDir: join(base, 'data', 'sandbox'),
        seedStateDir: shippedSeed(base),
        log,
        redactor,
      }).launch({ signal: controller.signal })
      controller.abort()
      await expect(starting).rejects.toMatchObject({ kind: 'cancelled' })
      expect(utilityProcess.fork).not.toHaveBeenCalled()
    } finally {
      rmSync(base, { recursive: true, force: true })
    }
  })
})

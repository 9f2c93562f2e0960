import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ROOT } from '../testing/sandbox-harness'
import { descendants, isAlive, type ProcInfo } from '../testing/process-tree'

/**
 * No orphans (issue 38): a real process tree — a host process that starts the sandbox through
 * core's launcher, as the web host does; the sandbox; its two anvil chains (each under its sh
 * watchdog) — checked in /proc after a SIGKILL that runs no exit handler.
 */
/** Through core's launcher (stdin a pipe), or with stdin from /dev/null as Electron's utility process. */
const HOSTS = {
  pipe: join(ROOT, 'src', 'main', 'core', 'testing', 'sandbox-host.ts'),
  'no-stdin': join(ROOT, 'sandbox', 'no-stdin-host.ts'),
}
const GONE_WITHIN_MS = 5000

let host: ChildProcess | null = null
let tree: ProcInfo[] = []

afterEach(async () => {
  // The anvils' watchdogs may still be removing the chains' homes: they get the time to finish.
  // Whatever a failed assertion left behind is then killed by pid and the host awaited.
  await survivors(tree.map((p) => p.pid))
  for (const p of tree) if (isAlive(p.pid)) process.kill(p.pid, 'SIGKILL')
  if (host && host.exitCode === null && host.signalCode === null) {
    const exited = new Promise((r) => host!.once('exit', r))
    host.kill('SIGKILL')
    await exited
  }
  host = null
  tree = []
})

async function startHost(
  kind: keyof typeof HOSTS = 'pipe',
  args: string[] = [],
): Promise<{ sandbox: ProcInfo; anvils: ProcInfo[]; baseUrl: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOSTS[kind], '--block-time', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  host = child
  let stderr = ''
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)))
  const baseUrl = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('ready ')) resolve(line.slice('ready '.length))
    })
    child.once('exit', (code) => reject(new Error(`host exited (${code}) before ready:\n${stderr}`)))
  })
  tree = descendants(child.pid!)
  const sandbox = tree.find((p) => p.ppid === child.pid)
  const anvils = tree.filter((p) => p.comm === 'anvil')
  expect(sandbox, 'the sandbox process').toBeDefined()
  expect(anvils).toHaveLength(2)
  return { sandbox: sandbox!, anvils, baseUrl }
}

/** The HOME a process was started with (anvil's: where it writes the states it cannot keep in memory). */
function homeOf(pid: number): string | null {
  const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')
  return env.find((e) => e.startsWith('HOME='))?.slice('HOME='.length) ?? null
}

/**
 * The anvils' homes (their overflow states) are removed once they have exited, by their
 * watchdogs: nothing of a chain stays on disk (anvil itself leaves its states behind).
 */
async function homesGone(homes: (string | null)[]): Promise<void> {
  for (const home of homes) expect(home).toMatch(/chainscope-anvil-/)
  await vi.waitFor(() => expect(homes.filter((h) => existsSync(h!))).toEqual([]), { timeout: GONE_WITHIN_MS })
}

/** Polls /proc until none of `pids` is alive or the deadline passes; answers those still alive. */
async function survivors(pids: number[]): Promise<{ alive: number[]; ms: number }> {
  const start = performance.now()
  const alive = await vi
    .waitFor(
      () => {
        expect(pids.filter(isAlive)).toEqual([])
        return []
      },
      { timeout: GONE_WITHIN_MS, interval: 50 },
    )
    .catch(() => pids.filter(isAlive))
  return { alive, ms: performance.now() - start }
}

describe('the sandbox leaves no process behind', { timeout: 400_000 }, () => {
  it('a SIGKILLed host takes the sandbox and both anvils with it, and the sandbox saves its chains on the way out', async () => {
    const live = mkdtempSync(join(tmpdir(), 'sandbox-orphans-'))
    try {
      const { sandbox, anvils, baseUrl } = await startHost('pipe', ['--admin', '--live-state', live])
      const homes = anvils.map((a) => homeOf(a.pid))
      const r = await fetch(`${baseUrl}/__sandbox/transfer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ network: 'alpha', to: `0x${'22'.repeat(20)}`, kind: 'native', after: 1 }),
      })
      const { block } = (await r.json()) as { block: number }
      process.kill(host!.pid!, 'SIGKILL')
      const { alive, ms } = await survivors([sandbox.pid, ...anvils.map((a) => a.pid)])
      console.log(`host SIGKILL: ${alive.length} of 3 alive after ${Math.round(ms)} ms`)
      expect(alive).toEqual([])
      await homesGone(homes)
      const chain = readdirSync(live).find((n) => n.startsWith('7001-'))!
      expect(readFileSync(join(live, chain, 'current'), 'utf8')).toMatch(new RegExp(`^h${block}-`))
    } finally {
      rmSync(live, { recursive: true, force: true })
    }
  })

  it('a SIGKILLed host whose sandbox has no stdin pipe (as in Electron): the sandbox notices its new parent', async () => {
    const { sandbox, anvils } = await startHost('no-stdin')
    const homes = anvils.map((a) => homeOf(a.pid))
    process.kill(host!.pid!, 'SIGKILL')
    const { alive, ms } = await survivors([sandbox.pid, ...anvils.map((a) => a.pid)])
    console.log(`host SIGKILL, no stdin pipe: ${alive.length} of 3 alive after ${Math.round(ms)} ms`)
    expect(alive).toEqual([])
    await homesGone(homes)
  })

  it('a SIGKILLed sandbox takes both anvils with it and their homes (overflow states), and the host sees it exit', async () => {
    const { sandbox, anvils } = await startHost()
    const homes = anvils.map((a) => homeOf(a.pid))
    for (const home of homes) expect(home).toMatch(/chainscope-anvil-/)
    process.kill(sandbox.pid, 'SIGKILL')
    const { alive, ms } = await survivors(anvils.map((a) => a.pid))
    console.log(`sandbox SIGKILL: ${alive.length} of 2 anvils alive after ${Math.round(ms)} ms`)
    expect(alive).toEqual([])
    await homesGone(homes)
    expect(isAlive(host!.pid!)).toBe(true)
  })
})

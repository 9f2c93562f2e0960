import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { Cleanup, kernelThreadsCpuMs, StallWatch } from './ui-support'

const SUPPORT = JSON.stringify(resolve(import.meta.dirname, 'ui-support.ts'))

/**
 * Starts a stand-in benchmark (TypeScript `source`, which may import SUPPORT) from `dir` and waits
 * for a line matching `ready` in its output; answers the process, the match and the output so far.
 */
async function startStandIn(
  dir: string,
  source: string,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray; output: () => string }> {
  const script = join(dir, 'bench.ts')
  writeFileSync(script, source)
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
  let match: RegExpExecArray | null
  while (!(match = ready.exec(out))) {
    if (child.exitCode !== null) throw new Error(`the stand-in benchmark ended at start: ${out}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  return { child, match, output: () => out }
}

describe('Cleanup', () => {
  it('runs each step once, newest first, whoever asks; a step added once the end has begun runs too', async () => {
    const ran: string[] = []
    const cleanup = new Cleanup()
    cleanup.add(() => ran.push('sandbox'))
    cleanup.add(async () => {
      await new Promise((r) => setTimeout(r, 20))
      ran.push('host')
    })
    const first = cleanup.run()
    cleanup.add(() => ran.push('browser (started meanwhile)'))
    const second = cleanup.run()
    await Promise.all([first, second])
    expect(ran).toEqual(['host', 'sandbox', 'browser (started meanwhile)'])
    await cleanup.run()
    expect(ran).toHaveLength(3)
  })

  it('stops what a benchmark started when the benchmark is killed, and exits with the signal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cleanup-test-'))
    let chainPid = 0
    let child: ChildProcess | null = null
    try {
      const started = await startStandIn(
        dir,
        `import { spawn } from 'node:child_process'
import { Cleanup } from ${SUPPORT}
const cleanup = new Cleanup().stopOnSignals()
const chain = spawn('sleep', ['60'], { stdio: 'ignore' })
cleanup.add(async () => { chain.kill(); await new Promise((r) => chain.once('exit', r)); console.log('stopped') })
console.log('started ' + chain.pid)
setInterval(() => {}, 1000)
`,
        /started (\d+)/,
      )
      child = started.child
      chainPid = Number(started.match[1])
      child.kill('SIGTERM')
      const [code, signal] = (await once(child, 'exit')) as [number | null, string | null]
      expect({ code, signal }).toEqual({ code: 143, signal: null })
      expect(started.output()).toContain('stopped')
      expect(() => process.kill(chainPid, 0)).toThrow()
    } finally {
      rmSync(dir, { recursive: true, force: true })
      // Failing, the test must not leave the stand-in chain behind either.
      for (const pid of [child?.pid, chainPid])
        try {
          if (pid) process.kill(pid, 'SIGKILL')
        } catch {
          // Gone already, as it should be.
        }
    }
  })
})

describe('StallWatch', () => {
  it('reports the span in which its sleeper was not run, and ends when stopped', async () => {
    const watch = new StallWatch()
    try {
      await watch.started()
      await new Promise((r) => setTimeout(r, 50))
      // Nothing of ours being run, as the sleeper sees it: it is stopped for 300 ms.
      const stopped = Date.now()
      process.kill(watch.pid!, 'SIGSTOP')
      await new Promise((r) => setTimeout(r, 300))
      process.kill(watch.pid!, 'SIGCONT')
      const resumed = Date.now()
      // Asked at once, as a benchmark asks when its measure ends.
      const during = await watch.between(stopped, resumed)
      const injected = during.spans.filter((s) => s.start <= stopped + 15 && s.end >= resumed - 15)
      expect(injected).toHaveLength(1)
      expect(during.longestMs).toBeGreaterThanOrEqual(280)
      expect(StallWatch.describe(during)).toMatch(/^\d+, the longest \d+ ms$/)
      // A span that ended before the stop does not see it (other, real stalls it may).
      const earlier = await watch.between(0, stopped - 20)
      expect(earlier.spans.filter((s) => s.end >= resumed - 15)).toEqual([])
      expect(StallWatch.describe({ spans: [], longestMs: 0 })).toBe('none')
    } finally {
      // A failure above must not leave it stopped: it would not end on SIGTERM until the grace ran out.
      if (watch.pid) process.kill(watch.pid, 'SIGCONT')
      await watch.stop()
    }
    expect(() => process.kill(watch.pid!, 0)).toThrow()
  })

  it('ends on its own when the benchmark that started it is gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stall-watch-test-'))
    let sleeper = 0
    try {
      const { child: bench, match } = await startStandIn(
        dir,
        `import { StallWatch } from ${SUPPORT}
const watch = new StallWatch()
void watch.started().then(() => console.log('sleeper ' + watch.pid))
setInterval(() => {}, 1000)
`,
        /sleeper (\d+)/,
      )
      sleeper = Number(match[1])
      // Gone without a word: no cleanup of its own runs.
      bench.kill('SIGKILL')
      await once(bench, 'exit')
      const deadline = Date.now() + 5000
      let alive = true
      while (alive && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50))
        try {
          process.kill(sleeper, 0)
        } catch {
          alive = false
        }
      }
      expect(alive).toBe(false)
    } finally {
      rmSync(dir, { recursive: true, force: true })
      try {
        if (sleeper) process.kill(sleeper, 'SIGKILL')
      } catch {
        // Gone, as it should be.
      }
    }
  })
})

describe('kernelThreadsCpuMs', () => {
  it("sums the CPU time of kernel threads only, from each task's stat", () => {
    const proc = mkdtempSync(join(tmpdir(), 'proc-test-'))
    try {
      // flags (7th field after the name) 0x00208040 is a kernel worker, 0x00400100 a user process;
      // utime and stime are the 12th and 13th, in ticks of 10 ms.
      const stat = (name: string, flags: number, utime: number, stime: number): string =>
        `(${name}) S 2 0 0 0 -1 ${flags} 0 0 0 0 ${utime} ${stime} 0 0 20 0 1 0 100 0 0\n`
      const task = (pid: string, text: string): void => {
        mkdirSync(join(proc, pid))
        writeFileSync(join(proc, pid, 'stat'), `${pid} ${text}`)
      }
      task('12', stat('kworker/u8:1-events_unbound', 0x00208040, 150, 90))
      task('13', stat('kdamond.0', 0x00208040, 0, 4))
      // A name with spaces and a parenthesis must not shift the fields.
      task('400', stat('chromium (renderer) x', 0x00400100, 5000, 700))
      mkdirSync(join(proc, 'self'))
      mkdirSync(join(proc, '401')) // Gone between the listing and the read: no stat file.
      expect(kernelThreadsCpuMs(proc)).toBe((150 + 90 + 4) * 10)
      expect(kernelThreadsCpuMs(join(proc, 'missing'))).toBeNull()
    } finally {
      rmSync(proc, { recursive: true, force: true })
    }
  })

  it('reads this machine', () => {
    const ms = kernelThreadsCpuMs()
    if (process.platform === 'linux') expect(Number.isInteger(ms) && ms! >= 0).toBe(true)
    else expect(ms).toBeNull()
  })
})

import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { Cleanup, StallWatch } from './ui-support'

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
    let child: ReturnType<typeof spawn> | null = null
    try {
      const script = join(dir, 'bench.ts')
      writeFileSync(
        script,
        `import { spawn } from 'node:child_process'
import { Cleanup } from ${JSON.stringify(resolve(import.meta.dirname, 'ui-support.ts'))}
const cleanup = new Cleanup().stopOnSignals()
const chain = spawn('sleep', ['60'], { stdio: 'ignore' })
cleanup.add(async () => { chain.kill(); await new Promise((r) => chain.once('exit', r)); console.log('stopped') })
console.log('started ' + chain.pid)
setInterval(() => {}, 1000)
`,
      )
      child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] })
      let out = ''
      child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
      while (!out.includes('started')) {
        if (child.exitCode !== null) throw new Error(`the stand-in benchmark ended at start: ${out}`)
        await new Promise((r) => setTimeout(r, 50))
      }
      chainPid = Number(/started (\d+)/.exec(out)![1])
      child.kill('SIGTERM')
      const [code, signal] = (await once(child, 'exit')) as [number | null, string | null]
      expect({ code, signal }).toEqual({ code: 143, signal: null })
      expect(out).toContain('stopped')
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
  it('sees a span in which its sleeper was not run, and only there', async () => {
    const watch = await StallWatch.start()
    try {
      const before = Date.now()
      await new Promise((r) => setTimeout(r, 50))
      // The machine standing still, as the sleeper sees it: it is not run for 300 ms.
      process.kill(watch.pid!, 'SIGSTOP')
      const stopped = Date.now()
      await new Promise((r) => setTimeout(r, 300))
      process.kill(watch.pid!, 'SIGCONT')
      await new Promise((r) => setTimeout(r, 100))
      const during = watch.between(stopped, Date.now())
      expect(during.count).toBeGreaterThanOrEqual(1)
      expect(during.longestMs).toBeGreaterThanOrEqual(290)
      expect(StallWatch.describe(during)).toMatch(/^\d+, the longest \d+ ms$/)
      // Nothing as long before it (shorter ones may come from a busy test machine).
      expect(watch.between(0, before).longestMs).toBeLessThan(290)
      expect(StallWatch.describe({ count: 0, longestMs: 0 })).toBe('none')
    } finally {
      await watch.stop()
    }
    expect(() => process.kill(watch.pid!, 0)).toThrow()
  })
})

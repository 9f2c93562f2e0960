import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { logFile, type AppendFs } from './log-file'

const dirs: string[] = []
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'log-file-'))
  dirs.push(dir)
  return join(dir, 'logs', 'main.log')
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** Lets queued promise callbacks run (the writer's mkdir, then its first append). */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}

/** A disk that takes nothing until released: every append waits on the gate. */
function hangingDisk(): { fs: AppendFs; written: string[]; release(): void; calls: () => number } {
  let open: () => void = () => undefined
  const gate = new Promise<void>((r) => (open = r))
  const written: string[] = []
  let calls = 0
  return {
    written,
    calls: () => calls,
    release: () => open(),
    fs: {
      mkdir: async () => undefined,
      appendFile: async (_path, data) => {
        calls++
        await gate
        written.push(data)
      },
    },
  }
}

describe('logFile', () => {
  it('appends lines in order to a real file, creating its folder', async () => {
    const file = tempFile()
    const log = logFile(file)
    for (let i = 0; i < 50; i++) log.write(`line ${i}\n`)
    await log.flush()
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n')
    expect(lines).toEqual(Array.from({ length: 50 }, (_, i) => `line ${i}`))
  })

  it('returns at once while the disk hangs, and holds one append in flight', async () => {
    const disk = hangingDisk()
    const log = logFile('/nowhere/main.log', { fs: disk.fs })
    for (let i = 0; i < 100; i++) log.write(`line ${i}\n`)
    await settle()
    expect(disk.calls()).toBe(1)
    expect(disk.written).toEqual([])
    disk.release()
    await log.flush()
    expect(disk.written.join('')).toBe(Array.from({ length: 100 }, (_, i) => `line ${i}\n`).join(''))
  })

  it('keeps at most maxPending lines while the disk hangs and says how many it dropped', async () => {
    const disk = hangingDisk()
    const log = logFile('/nowhere/main.log', { fs: disk.fs, maxPending: 5 })
    log.write('first\n') // taken by the hanging append
    await settle()
    for (let i = 0; i < 12; i++) log.write(`line ${i}\n`)
    disk.release()
    await log.flush()
    const text = disk.written.join('')
    expect(text.startsWith('first\n')).toBe(true)
    expect(text).toMatch(/ warn 7 log lines dropped: the disk did not take them in time\n/)
    expect(text.endsWith(['line 7', 'line 8', 'line 9', 'line 10', 'line 11'].map((l) => `${l}\n`).join(''))).toBe(true)
    expect(text).not.toContain('line 6\n')
  })

  it('gives up a failed append without throwing and goes on with the next lines', async () => {
    let fail = true
    const written: string[] = []
    const fs: AppendFs = {
      mkdir: async () => undefined,
      appendFile: async (_p, data) => {
        if (fail) {
          fail = false
          throw Object.assign(new Error('no space left'), { code: 'ENOSPC' })
        }
        written.push(data)
      },
    }
    const log = logFile('/nowhere/main.log', { fs })
    log.write('lost\n')
    await log.flush()
    log.write('kept\n')
    await log.flush()
    expect(written).toEqual(['kept\n'])
  })
})

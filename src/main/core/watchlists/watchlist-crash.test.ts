import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { bundleFixture } from '../testing/bundle-fixture'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WatchlistStore } from './watchlist-store'
import { addr } from '../testing/address'

let dir: string
let writer: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'watchlist-crash-'))
  writer = await bundleFixture(join(import.meta.dirname, 'testing', 'sigkill-writer.ts'), dir)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const STEPS = [
  'bak-write',
  'bak-fsync',
  'bak-rename',
  'main-write',
  'main-fsync',
  'main-rename',
  'main-renamed',
] as const
/** Steps at which the killed writer leaves its temp file behind: it died inside the write. */
const MID_WRITE = new Set(['bak-write', 'bak-fsync', 'bak-rename', 'main-write', 'main-fsync', 'main-rename'])

describe('watchlists under SIGKILL', () => {
  it('leave a valid, complete file after a writer is killed mid-write, 100 times out of 100', async () => {
    const data = join(dir, 'data')
    const seed = new WatchlistStore({ dataDir: data })
    const list = await seed.create('gen-0')
    const note = 'n'.repeat(900)
    for (let i = 0; i < 200; i++) {
      await seed.addEntry(list.id, {
        address: addr(`0x${(i + 1).toString(16).padStart(40, '0')}`),
        network: 'alpha',
        label: `entry ${i}`,
        note,
        tags: ['t'],
      })
    }
    let lastSaved = 0
    let midWrite = 0
    for (let round = 0; round < 100; round++) {
      // Even rounds: the writer kills itself at one exact step of the write protocol (every
      // step, at varying fractions of the bytes). Odd rounds: this test kills it from outside
      // right after it announces a save.
      const step = round % 2 === 0 ? STEPS[(round / 2) % STEPS.length]! : null
      const args = step ? [writer, data, step, String(((round * 37) % 100) / 100)] : [writer, data, 'external']
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
      let stderr = ''
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
      const exited = once(child, 'exit')
      const killAfter = 1 + (round % 5)
      let announced = 0
      for await (const line of createInterface({ input: child.stdout })) {
        expect(line, 'the writer never found a damaged file').not.toMatch(/^notice/)
        const saved = /^saved (\d+)$/.exec(line)
        if (saved) lastSaved = Math.max(lastSaved, Number(saved[1]))
        if (!step && /^saving/.test(line) && ++announced === killAfter) {
          child.kill('SIGKILL')
          break
        }
      }
      const [code, signal] = await exited
      expect(signal, `round ${round} (${step ?? 'external'}): ${stderr}`).toBe('SIGKILL')
      expect(code).toBeNull()
      const leftover = readdirSync(data).filter((f) => f.endsWith('.tmp'))
      if (step && MID_WRITE.has(step)) expect(leftover.length, `round ${round} (${step}) died inside a write`).toBe(1)
      if (leftover.length > 0) midWrite += 1

      // Valid JSON, the current schema, all 200 entries, and nothing older than the last
      // save the writer reported complete.
      const doc = JSON.parse(readFileSync(join(data, 'watchlists.json'), 'utf8')) as {
        version: number
        lists: { name: string; entries: unknown[] }[]
      }
      expect(doc.version).toBe(2)
      expect(doc.lists).toHaveLength(1)
      expect(doc.lists[0]!.entries).toHaveLength(200)
      expect(Number(doc.lists[0]!.name.replace('gen-', ''))).toBeGreaterThanOrEqual(lastSaved)
      // The backup is valid too, and the store opens without any recovery.
      expect(JSON.parse(readFileSync(join(data, 'watchlists.json.bak'), 'utf8')).version).toBe(2)
      const reopened = new WatchlistStore({ dataDir: data })
      expect(reopened.notice).toBeNull()
      expect(readdirSync(data).filter((f) => f.endsWith('.tmp'))).toEqual([])
    }
    expect(midWrite).toBeGreaterThanOrEqual(43)
  }, 240_000)
})

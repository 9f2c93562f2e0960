import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { bundleFixture } from '../testing/bundle-fixture'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CaseStore } from './case-store'
import { addr } from '../testing/address'

let dir: string
let writer: string

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'case-crash-'))
  writer = await bundleFixture(join(import.meta.dirname, 'testing', 'case-writer.ts'), dir)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('cases under SIGKILL', () => {
  it('a writer killed mid-write leaves the last good file, which opens without recovery', async () => {
    const data = join(dir, 'data')
    const seed = new CaseStore({ dataDir: data })
    const c = await seed.create('Case', { address: addr(`0x${'1'.repeat(40)}`), network: 'alpha' })
    await seed.setNotes(c.id, 'gen-0')
    const folder = join(data, 'cases')
    let lastSaved = 0
    let midWrite = 0
    for (let round = 0; round < 20; round++) {
      // Even rounds: the writer kills itself part way through writing the new file's bytes.
      // Odd rounds: this test kills it from outside right after it announces a save.
      const inside = round % 2 === 0
      const args = inside ? [writer, data, String(((round * 37) % 100) / 100)] : [writer, data, 'external']
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
      let stderr = ''
      child.stderr.on('data', (b: Buffer) => (stderr += b.toString()))
      const exited = once(child, 'exit')
      let announced = 0
      for await (const line of createInterface({ input: child.stdout })) {
        expect(line, 'the writer never found a damaged file').not.toMatch(/^notice/)
        const saved = /^saved (\d+)$/.exec(line)
        if (saved) lastSaved = Math.max(lastSaved, Number(saved[1]))
        if (!inside && /^saving/.test(line) && ++announced === 1 + (round % 4)) {
          child.kill('SIGKILL')
          break
        }
      }
      const [, signal] = await exited
      expect(signal, `round ${round}: ${stderr}`).toBe('SIGKILL')
      if (readdirSync(folder).some((f) => f.endsWith('.tmp'))) midWrite++
      const doc = JSON.parse(readFileSync(join(folder, `${c.id}.json`), 'utf8')) as { case: { notes: string } }
      expect(Number(/^gen-(\d+)/.exec(doc.case.notes)?.[1])).toBeGreaterThanOrEqual(lastSaved)
      const reopened = new CaseStore({ dataDir: data })
      expect(reopened.notice).toBeNull()
      expect(reopened.list()[0]!.addresses).toHaveLength(1)
      expect(readdirSync(folder).filter((f) => f.endsWith('.tmp'))).toEqual([])
    }
    // Every self-killed round died inside a write, with its temp file left behind.
    expect(midWrite).toBeGreaterThanOrEqual(10)
  }, 120_000)
})

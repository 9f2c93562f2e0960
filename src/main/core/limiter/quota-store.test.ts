import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DiskReports } from '../util/disk-error'
import { QuotaFile, type QuotaRecord } from './quota-store'

const record = fc.record({
  day: fc
    .date({ min: new Date(0), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  used: fc.nat(),
  keyTag: fc.stringMatching(/^[0-9a-f]{0,6}$/),
})
/** Ledger ids as limiter-pool.ts makes them: a profile id (bridge-checked), alone or with `|<bucket>`. */
const id = fc
  .tuple(
    fc.oneof(fc.constantFrom('sandbox', 'p-1', 'constructor'), fc.stringMatching(/^[a-z0-9-]{1,40}$/)),
    fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
  )
  .map(([profile, bucket]) => (bucket === undefined ? profile : `${profile}|${bucket}`))

describe('QuotaFile', () => {
  it('whatever counts the limiters save and remove, the file written loads back equal', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(fc.tuple(fc.constant('save' as const), id, record), fc.tuple(fc.constant('remove' as const), id)),
          {
            minLength: 1,
            maxLength: 20,
          },
        ),
        async (ops) => {
          const dir = mkdtempSync(join(tmpdir(), 'quota-prop-'))
          try {
            const told: string[] = []
            const file = new QuotaFile(join(dir, 'quota.json'), { disk: new DiskReports((m) => told.push(m)) })
            const expected = new Map<string, QuotaRecord>()
            for (const [op, key, r] of ops) {
              if (op === 'save') {
                file.save(key, r!)
                expected.set(key, r!)
              } else {
                file.remove(key)
                for (const k of [...expected.keys()]) if (k === key || k.startsWith(`${key}|`)) expected.delete(k)
              }
            }
            await file.settled()
            expect(told).toEqual([])
            const again = new QuotaFile(join(dir, 'quota.json'))
            for (const key of new Set(ops.map((o) => o[1]))) expect(again.load(key)).toEqual(expected.get(key) ?? null)
          } finally {
            rmSync(dir, { recursive: true, force: true })
          }
        },
      ),
      { numRuns: 80 },
    )
  })

  it('a write the disk refuses is told once, the count goes on in memory, and the next good write catches the file up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quota-'))
    try {
      const told: string[] = []
      // A regular file where the data folder should be: ENOTDIR, a real failure even for root.
      const path = join(dir, 'not-a-folder', 'quota.json')
      rmSync(join(dir, 'not-a-folder'), { force: true })
      writeFileSync(join(dir, 'not-a-folder'), '')
      const file = new QuotaFile(path, { disk: new DiskReports((m) => told.push(m)) })
      const r = { day: '2030-01-01', used: 10, keyTag: 'abc123' }
      expect(() => file.save('p', r)).not.toThrow()
      file.save('p', { ...r, used: 20 })
      expect(file.load('p')).toEqual({ ...r, used: 20 })
      await file.settled()
      expect(told).toEqual([
        "Chainscope could not save the daily request count: a file stands where the data folder (or a folder in it) should be. It goes on working from memory; a restart would count on from the last count saved. Free some space or fix the folder's permissions, and it saves again.",
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('keeps a damaged count file aside instead of overwriting it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quota-'))
    try {
      writeFileSync(join(dir, 'quota.json'), '{"version":1,"profiles":{"p":{"day":"x"}}}')
      const file = new QuotaFile(join(dir, 'quota.json'))
      expect(file.load('p')).toBeNull()
      file.save('p', { day: '2030-01-01', used: 1, keyTag: '' })
      const aside = readdirSync(dir).filter((n) => n.startsWith('quota.json.damaged-'))
      expect(aside).toHaveLength(1)
      expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe('{"version":1,"profiles":{"p":{"day":"x"}}}')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

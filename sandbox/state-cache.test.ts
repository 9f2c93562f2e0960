import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { cacheEntry, cacheKey, isComplete, pruneOtherEntries, withEntryLock, writeEntry } from './state-cache'

const dirs: string[] = []
const fresh = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'state-cache-'))
  dirs.push(d)
  return d
}
afterEach(() => {
  vi.useRealTimers()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe('state cache', () => {
  it('keys by content, bigints included', () => {
    expect(cacheKey({ a: 1n, b: [1, 2] })).toBe(cacheKey({ a: 1n, b: [1, 2] }))
    expect(cacheKey({ a: 1n })).not.toBe(cacheKey({ a: 2n }))
    expect(cacheKey({ a: 1n })).toMatch(/^[0-9a-f]{16}$/)
  })

  it('writes an entry completely or not at all', () => {
    const entry = cacheEntry(fresh(), 7001, 'abcdef0123456789')
    expect(isComplete(entry)).toBe(false)
    writeEntry(entry, { anvilState: '{}', index: '{}', manifest: '{}' })
    expect(isComplete(entry)).toBe(true)
    expect(readdirSync(join(entry.dir, '..'))).toEqual(['7001-abcdef0123456789'])
  })

  it('runs the work under the lock and releases it', async () => {
    const entry = cacheEntry(fresh(), 7001, 'abcdef0123456789')
    const result = await withEntryLock(
      entry,
      () => false,
      async () => {
        expect(existsSync(`${entry.dir}.lock`)).toBe(true)
        return 42
      },
      () => {},
    )
    expect(result).toBe(42)
    expect(existsSync(`${entry.dir}.lock`)).toBe(false)
  })

  it('takes over a lock left by a dead process', async () => {
    const entry = cacheEntry(fresh(), 7001, 'abcdef0123456789')
    const dead = spawnSync(process.execPath, ['-e', '0']).pid
    mkdirSync(`${entry.dir}.lock`)
    writeFileSync(join(`${entry.dir}.lock`, 'pid'), String(dead))
    const onWait = vi.fn()
    expect(
      await withEntryLock(
        entry,
        () => false,
        async () => 'mine',
        onWait,
      ),
    ).toBe('mine')
    expect(onWait).not.toHaveBeenCalled()
  })

  it('waits while a live process holds the lock and returns null once its entry is ready', async () => {
    vi.useFakeTimers()
    const entry = cacheEntry(fresh(), 7001, 'abcdef0123456789')
    mkdirSync(`${entry.dir}.lock`)
    writeFileSync(join(`${entry.dir}.lock`, 'pid'), String(process.pid))
    let ready = false
    const onWait = vi.fn()
    const work = vi.fn(async () => 'should not run')
    const waiting = withEntryLock(entry, () => ready, work, onWait)
    await vi.advanceTimersByTimeAsync(1000)
    expect(onWait).toHaveBeenCalledTimes(1)
    ready = true
    await vi.advanceTimersByTimeAsync(250)
    expect(await waiting).toBeNull()
    expect(work).not.toHaveBeenCalled()
  })

  it('keeps the current entry and the most recent other one per chain', () => {
    const dir = fresh()
    const names = ['7001-0000000000000001', '7001-0000000000000002', '7001-0000000000000003', '7002-0000000000000001']
    names.forEach((n, i) => {
      mkdirSync(join(dir, n))
      utimesSync(join(dir, n), 1000 + i, 1000 + i)
    })
    mkdirSync(join(dir, '7001-0000000000000009.tmp-999999999'))
    pruneOtherEntries(dir, 7001, '0000000000000001')
    expect(readdirSync(dir).sort()).toEqual(['7001-0000000000000001', '7001-0000000000000003', '7002-0000000000000001'])
  })
})

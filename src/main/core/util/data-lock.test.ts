import { spawn } from 'node:child_process'
import { hostname, tmpdir } from 'node:os'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { acquireDataLock, LOCK_FILE } from './data-lock'
import { readFound } from './exclusive-file'

/** The lock's takeover rules in one process; the race of two processes is data-lock.race.test.ts. */
const base = mkdtempSync(join(tmpdir(), 'data-lock-'))
afterAll(() => rmSync(base, { recursive: true, force: true }))

let count = 0
function folder(): string {
  return join(base, `d${count++}`)
}

/** The pid of a process that has exited (and was awaited). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await new Promise((r) => child.once('exit', r))
  return child.pid!
}

function lockText(pid: number, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ pid, host: 'web', since: '2026-01-01T00:00:00.000Z', machine: hostname(), ...extra })
}

function plant(dir: string, text: string): string {
  acquireDataLock(dir, 'web').release()
  const path = join(dir, LOCK_FILE)
  writeFileSync(path, text)
  return path
}

describe('acquireDataLock', () => {
  it('refuses a live holder by name, also in the format an earlier version wrote', () => {
    const dir = folder()
    plant(dir, lockText(process.ppid))
    expect(() => acquireDataLock(dir, 'electron')).toThrow(
      `is in use by another Chainscope (a web host, process ${process.ppid}`,
    )
  })

  it('takes over a dead holder’s lock and the leftovers of a taker that died mid-takeover', async () => {
    const dir = folder()
    const dead = await deadPid()
    const path = plant(dir, lockText(dead))
    const key = readFound(path)!.key
    // A start that died holding the first token, and one that died writing its lock.
    writeFileSync(`${path}.takeover-${key}-0`, lockText(dead, { id: 'x' }))
    writeFileSync(`${path}.tmp-${dead}-abc`, '{')
    const lock = acquireDataLock(dir, 'web')
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid, host: 'web' })
    expect(readdirSync(dir)).toEqual([LOCK_FILE])
    lock.release()
    expect(readdirSync(dir)).toEqual([])
  })

  it('waits for a live taker and then asks to try again, leaving the stale lock to it', async () => {
    const dir = folder()
    const path = plant(dir, lockText(await deadPid()))
    const token = `${path}.takeover-${readFound(path)!.key}-0`
    writeFileSync(token, lockText(process.ppid, { id: 'live-taker' }))
    expect(() => acquireDataLock(dir, 'web')).toThrow(
      `could not be locked (another Chainscope is starting at the same moment); try again. If none is starting, delete ${token}.`,
    )
    expect(readdirSync(dir).sort()).toEqual([LOCK_FILE, `${LOCK_FILE}.takeover-${readFound(path)!.key}-0`])
    rmSync(token)
    expect(acquireDataLock(dir, 'web').path).toBe(path)
  })

  it('takes over a damaged lock once it has stayed the same for a while', () => {
    const dir = folder()
    const path = plant(dir, '{"pid": 12')
    const before = readFound(path)!.key
    acquireDataLock(dir, 'web')
    expect(readFound(path)!.key).not.toBe(before)
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid })
  })

  it('a release leaves a lock that is not its own', () => {
    const dir = folder()
    const lock = acquireDataLock(dir, 'web')
    const path = join(dir, LOCK_FILE)
    writeFileSync(path, lockText(process.ppid, { id: 'another' }))
    lock.release()
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ id: 'another' })
  })
})

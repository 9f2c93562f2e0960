import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCK_FILE } from './data-lock'

/**
 * Two starts at the same moment over a stale lock (issue 43, finding 3): real processes running
 * the real lock code race for one data folder, TRIALS times; never may both own it. The stale
 * locks are real: a third process takes every folder's lock and is killed with SIGKILL.
 */
const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..')
const TRIALS = 240

interface Reply {
  dir: string
  owned: boolean
  message?: string
}

interface Racer {
  child: ChildProcess
  take(dir: string, at: number): Promise<Reply>
  exited: Promise<void>
}

const base = mkdtempSync(join(tmpdir(), 'lock-race-'))
const racers: Racer[] = []

async function startRacer(): Promise<Racer> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/main/core/testing/lock-racer.ts')], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  const waiting: ((reply: Reply) => void)[] = []
  let ready!: () => void
  const isReady = new Promise<void>((r) => (ready = r))
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line === 'ready') ready()
    else waiting.shift()?.(JSON.parse(line) as Reply)
  })
  const racer: Racer = {
    child,
    exited,
    take: (dir, at) =>
      new Promise<Reply>((r, fail) => {
        waiting.push(r)
        void exited.then(() => fail(new Error(`the racer ${child.pid} exited`)))
        child.stdin!.write(`${JSON.stringify({ dir, at })}\n`)
      }),
  }
  racers.push(racer)
  await Promise.race([isReady, exited.then(() => Promise.reject(new Error('a racer exited before it was ready')))])
  return racer
}

async function stop(racer: Racer): Promise<void> {
  if (racer.child.exitCode === null && racer.child.signalCode === null) racer.child.kill('SIGKILL')
  await racer.exited
}

const dirs = Array.from({ length: TRIALS }, (_, i) => join(base, `data-${i}`))
let first: Racer
let second: Racer

beforeAll(async () => {
  // Every folder gets a real stale lock: its holder took it and was killed.
  const crasher = await startRacer()
  const taken = await Promise.all(dirs.map((dir) => crasher.take(dir, 0)))
  expect(taken.filter((t) => !t.owned)).toEqual([])
  await stop(crasher)
  ;[first, second] = await Promise.all([startRacer(), startRacer()])
})

afterAll(async () => {
  await Promise.all(racers.map(stop))
  rmSync(base, { recursive: true, force: true })
})

function holderOnDisk(dir: string): number | null {
  try {
    return (JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as { pid: number }).pid
  } catch {
    return null
  }
}

describe('data lock: two starts over a stale lock', () => {
  it(`never gives one folder two owners in ${TRIALS} races`, async () => {
    const bothOwned: string[] = []
    const noneOwned: string[] = []
    const notOnDisk: string[] = []
    const holderUnnamed: string[] = []
    for (const dir of dirs) {
      // Both start at the same wall-clock moment, a little ahead so both are waiting for it.
      const at = Date.now() + 15
      const [a, b] = await Promise.all([first.take(dir, at), second.take(dir, at)])
      const owners = [a, b].flatMap((reply, i) => (reply.owned ? [[first, second][i]!.child.pid] : []))
      if (owners.length === 2) bothOwned.push(dir)
      if (owners.length === 0) noneOwned.push(`${a.message} / ${b.message}`)
      if (owners.length !== 1) continue
      // The file on disk names the one owner; the loser was told who holds the folder.
      if (holderOnDisk(dir) !== owners[0]) notOnDisk.push(dir)
      if (!(a.owned ? b : a).message?.includes(`process ${owners[0]}`)) holderUnnamed.push(`${a.message ?? b.message}`)
    }
    expect({ bothOwned: bothOwned.length, noneOwned, notOnDisk: notOnDisk.length, holderUnnamed }).toEqual({
      bothOwned: 0,
      noneOwned: [],
      notOnDisk: 0,
      holderUnnamed: [],
    })
  }, 120_000)
})

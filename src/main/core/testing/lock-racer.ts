/**
 * Test support for util/data-lock.race.test.ts: a process that only takes data locks. Each stdin
 * line `{"dir", "at"}` is one start: it waits (spinning, for a sub-millisecond start) until the
 * wall clock reaches `at`, calls the real acquireDataLock and prints `{"dir", "owned", "message"}`.
 * It never releases: a lock it took is held until the test kills it.
 */
import { createInterface } from 'node:readline'
import { acquireDataLock } from '../util/data-lock'

const now = (): number => performance.timeOrigin + performance.now()

createInterface({ input: process.stdin }).on('line', (line) => {
  const { dir, at } = JSON.parse(line) as { dir: string; at: number }
  while (now() < at) {
    // Spin: a timer's granularity would spread the two starts over a millisecond or more.
  }
  let reply: { dir: string; owned: boolean; message?: string }
  try {
    acquireDataLock(dir, 'web')
    reply = { dir, owned: true }
  } catch (error) {
    reply = { dir, owned: false, message: error instanceof Error ? error.message : String(error) }
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`)
})
process.stdout.write('ready\n')

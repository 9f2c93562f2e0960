import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'

/**
 * Test fixture (case-crash.test.ts): rewrites the notes of the one case in `<dataDir>` as fast
 * as it can, printing `saving N` before and `saved N` after each save, until it is killed.
 * `node writer.mjs <dataDir> external` waits for the test's SIGKILL;
 * `node writer.mjs <dataDir> <fraction>` SIGKILLs itself on its third save after writing that
 * fraction of the new file's bytes into the temp file (a crash mid-write).
 */
const [dir, mode = 'external'] = process.argv.slice(2)
if (!dir) throw new Error('usage: case-writer <dataDir> [external | <fraction>]')
let armed = false
if (mode !== 'external') {
  const fraction = Number(mode)
  const paths = new Map<number, string>()
  const real = { openSync: fs.openSync, writeSync: fs.writeSync }
  fs.openSync = ((path: fs.PathLike, ...rest: unknown[]) => {
    const fd = (real.openSync as (...a: unknown[]) => number)(path, ...rest)
    paths.set(fd, String(path))
    return fd
  }) as typeof fs.openSync
  fs.writeSync = ((fd: number, data: string | Uint8Array, ...rest: unknown[]) => {
    const path = paths.get(fd) ?? ''
    if (armed && path.endsWith('.tmp') && !path.includes('.bak.')) {
      const bytes = Buffer.from(data as string)
      real.writeSync(fd, bytes.subarray(0, Math.floor(bytes.length * fraction)))
      process.kill(process.pid, 'SIGKILL')
      for (;;) {
        /* the signal is on its way */
      }
    }
    return (real.writeSync as (...a: unknown[]) => number)(fd, data, ...rest)
  }) as typeof fs.writeSync
  syncBuiltinESMExports()
}

const { CaseStore } = await import('../case-store')
const store = new CaseStore({ dataDir: dir })
if (store.notice) process.stdout.write(`notice ${store.notice}\n`)
const c = store.list()[0]
if (!c) throw new Error('the test prepares one case first')
let generation = Number(/^gen-(\d+)/.exec(c.notes)?.[1] ?? 0)
for (let saves = 0; ; saves++) {
  generation += 1
  armed = mode !== 'external' && saves === 2
  process.stdout.write(`saving ${generation}\n`)
  store.setNotes(c.id, `gen-${generation} ${'n'.repeat(5000)}`)
  process.stdout.write(`saved ${generation}\n`)
}

import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import { basename } from 'node:path'

/**
 * Test fixture (watchlist-crash.test.ts): rewrites the watchlists file as fast as it can,
 * printing `saving N` before and `saved N` after each save, until it is killed.
 *
 * `node writer.mjs <dataDir> external` waits for the test's SIGKILL.
 * `node writer.mjs <dataDir> <step> <fraction>` SIGKILLs itself at one exact step of the
 * atomic write protocol of its third save (fault injection), e.g. `main-write 0.5` after
 * writing half of the new file's bytes:
 *   bak-write, bak-fsync, bak-rename, main-write, main-fsync, main-rename, main-renamed.
 */
const [dir, mode = 'external', fractionText = '0.5'] = process.argv.slice(2)
if (!dir) throw new Error('usage: sigkill-writer <dataDir> [external | <step> <fraction>]')
let armed = false
const die = (): never => {
  process.kill(process.pid, 'SIGKILL')
  for (;;) {
    /* the signal is on its way */
  }
}
if (mode !== 'external') {
  const fraction = Number(fractionText)
  const paths = new Map<number, string>()
  const which = (path: string): 'bak' | 'main' => (basename(path).includes('.bak.') ? 'bak' : 'main')
  const real = { openSync: fs.openSync, writeSync: fs.writeSync, fsyncSync: fs.fsyncSync, renameSync: fs.renameSync }
  fs.openSync = ((path: fs.PathLike, ...rest: unknown[]) => {
    const fd = (real.openSync as (...a: unknown[]) => number)(path, ...rest)
    paths.set(fd, String(path))
    return fd
  }) as typeof fs.openSync
  fs.writeSync = ((fd: number, data: string | Uint8Array, ...rest: unknown[]) => {
    const path = paths.get(fd) ?? ''
    if (armed && path.endsWith('.tmp') && mode === `${which(path)}-write`) {
      const bytes = Buffer.from(data as string)
      real.writeSync(fd, bytes.subarray(0, Math.floor(bytes.length * fraction)))
      die()
    }
    return (real.writeSync as (...a: unknown[]) => number)(fd, data, ...rest)
  }) as typeof fs.writeSync
  fs.fsyncSync = ((fd: number) => {
    const path = paths.get(fd) ?? ''
    if (armed && path.endsWith('.tmp') && mode === `${which(path)}-fsync`) die()
    real.fsyncSync(fd)
  }) as typeof fs.fsyncSync
  fs.renameSync = ((from: fs.PathLike, to: fs.PathLike) => {
    const kind = which(String(from))
    if (armed && mode === `${kind}-rename`) die()
    real.renameSync(from, to)
    if (armed && mode === `${kind}-renamed`) die()
  }) as typeof fs.renameSync
  syncBuiltinESMExports()
}

const { WatchlistStore } = await import('../watchlist-store')
const store = new WatchlistStore({ dataDir: dir })
if (store.notice) process.stdout.write(`notice ${store.notice}\n`)
const list = store.list()[0]
if (!list) throw new Error('the test prepares one list first')
let generation = Number(list.name.replace(/^gen-/, ''))
for (let saves = 0; ; saves++) {
  generation += 1
  armed = mode !== 'external' && saves === 2
  process.stdout.write(`saving ${generation}\n`)
  store.rename(list.id, `gen-${generation}`)
  process.stdout.write(`saved ${generation}\n`)
}

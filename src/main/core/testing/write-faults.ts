import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import type { FileHandle } from 'node:fs/promises'
import { basename } from 'node:path'

/**
 * Test support for the crash tests' writer processes: once armed, SIGKILLs this process at one
 * exact step of the atomic write protocol (util/atomic-file.ts, its synchronous and asynchronous
 * writes alike), e.g. `main-write` after writing
 * `fraction` of the new file's bytes into its temp file. Steps:
 *   bak-write, bak-fsync, bak-rename, main-write, main-fsync, main-rename, main-renamed.
 * Call before the store is imported: the store's module must see the patched `fs`.
 */
export function injectWriteFault(step: string, fraction: number): { arm(): void } {
  let armed = false
  const die = (): never => {
    process.kill(process.pid, 'SIGKILL')
    for (;;) {
      /* the signal is on its way */
    }
  }
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
    if (armed && path.endsWith('.tmp') && step === `${which(path)}-write`) {
      const bytes = Buffer.from(data as string)
      real.writeSync(fd, bytes.subarray(0, Math.floor(bytes.length * fraction)))
      die()
    }
    return (real.writeSync as (...a: unknown[]) => number)(fd, data, ...rest)
  }) as typeof fs.writeSync
  fs.fsyncSync = ((fd: number) => {
    const path = paths.get(fd) ?? ''
    if (armed && path.endsWith('.tmp') && step === `${which(path)}-fsync`) die()
    real.fsyncSync(fd)
  }) as typeof fs.fsyncSync
  fs.renameSync = ((from: fs.PathLike, to: fs.PathLike) => {
    const kind = which(String(from))
    if (armed && step === `${kind}-rename`) die()
    real.renameSync(from, to)
    if (armed && step === `${kind}-renamed`) die()
  }) as typeof fs.renameSync
  // The same steps in the asynchronous writes (atomic-file.ts's writeFileAtomic).
  const fsp = fs.promises
  const realAsync = { open: fsp.open, rename: fsp.rename }
  fsp.open = (async (path: fs.PathLike, ...rest: unknown[]) => {
    const handle = await (realAsync.open as (...a: unknown[]) => Promise<FileHandle>)(path, ...rest)
    const name = String(path)
    if (!name.endsWith('.tmp')) return handle
    return Object.assign(Object.create(handle) as FileHandle, {
      writeFile: async (data: string | Uint8Array) => {
        if (armed && step === `${which(name)}-write`) {
          const bytes = Buffer.from(data as string)
          await handle.writeFile(bytes.subarray(0, Math.floor(bytes.length * fraction)))
          await handle.sync()
          die()
        }
        return handle.writeFile(data)
      },
      sync: async () => {
        if (armed && step === `${which(name)}-fsync`) die()
        return handle.sync()
      },
      close: () => handle.close(),
    })
  }) as typeof fsp.open
  fsp.rename = (async (from: fs.PathLike, to: fs.PathLike) => {
    const kind = which(String(from))
    if (armed && step === `${kind}-rename`) die()
    await realAsync.rename(from, to)
    if (armed && step === `${kind}-renamed`) die()
  }) as typeof fsp.rename
  syncBuiltinESMExports()
  return {
    arm: () => {
      armed = true
    },
  }
}

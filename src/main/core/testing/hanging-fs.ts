import type { FileHandle } from 'node:fs/promises'
import * as promises from 'node:fs/promises'
import type { WriteFs } from '../util/atomic-file'

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

/**
 * node:fs/promises for a store's writes, except that while `state.hang` is on, a write into a
 * temp file (atomic-file.ts) waits until `release`: a disk that stops answering, then comes
 * back. `reached` resolves once such a write is waiting. Test support only.
 */
export function hangingFs(): {
  fs: WriteFs
  state: { hang: boolean }
  reached(): Promise<void>
  release(): void
} {
  let gate = deferred()
  let reached = deferred()
  const state = { hang: false }
  const fs: WriteFs = {
    ...promises,
    open: (async (...args: Parameters<typeof promises.open>) => {
      const handle = await promises.open(...args)
      if (!state.hang || !String(args[0]).endsWith('.tmp')) return handle
      const waiting = gate.promise
      return Object.assign(Object.create(handle) as FileHandle, {
        writeFile: async (data: string | Uint8Array) => {
          reached.resolve()
          await waiting
          return handle.writeFile(data)
        },
        sync: () => handle.sync(),
        close: () => handle.close(),
      })
    }) as typeof promises.open,
  }
  return {
    fs,
    state,
    reached: () => reached.promise,
    release: () => {
      state.hang = false
      gate.resolve()
      gate = deferred()
      reached = deferred()
    },
  }
}

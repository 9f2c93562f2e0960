import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { entryFiles, isComplete, type CacheEntry } from './state-cache'

/**
 * The sandbox's own chains across its restarts (`--live-state DIR`, issue 38): anvil's state
 * dump and the index snapshot, taken together between two blocks so they always agree, saved
 * while it runs and on stop; a start resumes from them instead of the seed, so the app's cache
 * and the chain keep agreeing. `--fresh` forgets them (a reset, the user's explicit choice).
 * Decision record: docs/decisions/sandbox-lifecycle.md.
 *
 * Layout: `<DIR>/<chain id>-<seed key>/current` names the complete save (`h<head>-<ms>/`, the
 * three files of a cache entry). A save is written beside the last one and `current` is
 * replaced by a rename, so a crash at any moment leaves the previous save whole.
 */

export function chainDir(root: string, chainId: number, key: string): string {
  return join(root, `${chainId}-${key}`)
}

/**
 * The chain saved for this seed, if any. Saves made for another seed (a changed plan, another
 * anvil version) cannot be loaded: they are removed, with a log line saying so.
 */
export function savedEntry(options: {
  root: string
  chainId: number
  key: string
  log?: (message: string) => void
}): CacheEntry | null {
  const { root, chainId, key } = options
  if (!existsSync(root)) return null
  for (const name of readdirSync(root)) {
    if (name.startsWith(`${chainId}-`) && name !== `${chainId}-${key}`) {
      options.log?.(`chain ${chainId}: the saved chain ${name} was made from another seed; starting from the seed`)
      rmSync(join(root, name), { recursive: true, force: true })
    }
  }
  const dir = chainDir(root, chainId, key)
  let current: string
  try {
    current = readFileSync(join(dir, 'current'), 'utf8').trim()
  } catch {
    return null
  }
  if (!/^h\d+-\d+$/.test(current)) return null
  const at = join(dir, current)
  const files = { dir: at, ...entryFiles(at) }
  return isComplete(files) ? files : null
}

/** `--fresh`: every saved chain is forgotten. */
export function clearLiveState(root: string): void {
  rmSync(root, { recursive: true, force: true })
}

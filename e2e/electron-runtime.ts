import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/**
 * Where the Electron runtime binary is, or why it is not there. Reading `path.txt` directly
 * avoids `require('electron')`, which would try to download the runtime.
 */
export function electronRuntime(): { path: string } | { missing: string } {
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = join(process.env.ELECTRON_OVERRIDE_DIST_PATH, 'electron')
    return existsSync(p) ? { path: p } : { missing: `ELECTRON_OVERRIDE_DIST_PATH has no electron binary (${p})` }
  }
  const require = createRequire(import.meta.url)
  let dir: string
  try {
    dir = dirname(require.resolve('electron/package.json'))
  } catch {
    return { missing: 'the electron package is not installed (npm ci)' }
  }
  const pathFile = join(dir, 'path.txt')
  if (!existsSync(pathFile)) {
    return {
      missing:
        'the Electron runtime is not installed: node_modules/electron has no downloaded binary (this machine cannot download it; run "npx install-electron" where it can)',
    }
  }
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(binary) ? { path: binary } : { missing: `the Electron runtime binary is missing at ${binary}` }
}

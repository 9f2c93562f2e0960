import { accessSync, constants, existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Files the sandbox needs at run time are found from the package root, never from source
 * paths: the same code runs as sandbox/cli.ts under tsx and bundled as out/main/sandbox.js.
 */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from
  for (;;) {
    const manifest = join(dir, 'package.json')
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'chainscope') return dir
      } catch {
        // An unreadable manifest is not ours; keep walking up.
      }
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`cannot find the chainscope package root above ${from}`)
    dir = parent
  }
}

export class AnvilNotFoundError extends Error {
  override name = 'AnvilNotFoundError'
  readonly kind = 'anvil_not_found'
  constructor(readonly tried: string[]) {
    super(
      `No anvil binary found. Tried: ${tried.join('; ')}. Install the optional dependency ` +
        '@foundry-rs/anvil-<platform> with npm, put anvil on PATH, or set ANVIL_BIN.',
    )
  }
}

const PLATFORM_PACKAGE: Record<string, string> = {
  'linux-x64': 'anvil-linux-amd64',
  'linux-arm64': 'anvil-linux-arm64',
  'darwin-x64': 'anvil-darwin-amd64',
  'darwin-arm64': 'anvil-darwin-arm64',
  'win32-x64': 'anvil-win32-amd64',
}

const isExecutable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** ANVIL_BIN, else the platform package in node_modules, else `anvil` on PATH. */
export function resolveAnvilBinary(env: NodeJS.ProcessEnv = process.env, root: string = packageRoot()): string {
  const tried: string[] = []
  if (env.ANVIL_BIN) {
    if (isExecutable(env.ANVIL_BIN)) return env.ANVIL_BIN
    throw new AnvilNotFoundError([`ANVIL_BIN=${env.ANVIL_BIN} (not an executable file)`])
  }
  const exe = process.platform === 'win32' ? 'anvil.exe' : 'anvil'
  const pkg = PLATFORM_PACKAGE[`${process.platform}-${process.arch}`]
  if (pkg) {
    try {
      const manifest = createRequire(join(root, 'package.json')).resolve(`@foundry-rs/${pkg}/package.json`)
      const bin = join(dirname(manifest), 'bin', exe)
      if (isExecutable(bin)) return bin
      tried.push(`${bin} (not executable)`)
    } catch {
      tried.push(`@foundry-rs/${pkg} (not installed)`)
    }
  } else {
    tried.push(`no @foundry-rs package for ${process.platform}-${process.arch}`)
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const bin = join(dir, exe)
    if (isExecutable(bin)) return bin
  }
  tried.push(`${exe} on PATH`)
  throw new AnvilNotFoundError(tried)
}

#!/usr/bin/env node
/**
 * `npm start`: builds what is stale, then starts Chainscope on the embedded sandbox.
 * The desktop app runs where the Electron runtime is installed (it is fetched once if it can
 * be); otherwise, or with `--web`, the web host starts and prints the address to open.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const root = join(import.meta.dirname, '..')
const args = process.argv.slice(2)
const wantWeb = args.includes('--web')
const passOn = args.filter((a) => a !== '--web')

function newest(dir) {
  let t = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // Dot folders hold run-time data (the sandbox's `.state` cache), not sources.
    if (entry.name.startsWith('.')) continue
    const p = join(dir, entry.name)
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs)
  }
  return t
}

const builtAt = existsSync(join(root, 'out/main/web.js')) ? statSync(join(root, 'out/main/web.js')).mtimeMs : 0
// The build bundles sandbox/ too (out/main/sandbox.js).
if (builtAt === 0 || Math.max(newest(join(root, 'src')), newest(join(root, 'sandbox'))) > builtAt) {
  console.error('Building Chainscope…')
  const r = spawnSync(join(root, 'node_modules/.bin/electron-vite'), ['build'], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

function electronBinary() {
  const require = createRequire(import.meta.url)
  const dir = dirname(require.resolve('electron/package.json'))
  const pathFile = join(dir, 'path.txt')
  // One failed fetch is remembered, so a machine without network does not wait at every start.
  const failedMarker = join(root, 'node_modules', '.cache', 'chainscope-electron-fetch-failed')
  if (!existsSync(pathFile)) {
    if (existsSync(failedMarker)) {
      console.error(`The Electron runtime could not be fetched before; to try again, delete ${failedMarker} (or run "npx install-electron").`)
      return null
    }
    console.error('Fetching the Electron runtime (once)…')
    const r = spawnSync(process.execPath, [join(dir, 'install.js')], { stdio: 'inherit', timeout: 120_000 })
    if (r.status !== 0 || !existsSync(pathFile)) {
      mkdirSync(dirname(failedMarker), { recursive: true })
      writeFileSync(failedMarker, `${new Date().toISOString()}\n`)
      return null
    }
  }
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(binary) ? binary : null
}

const binary = wantWeb ? null : electronBinary()
if (!wantWeb && !binary) console.error('The Electron runtime is not available here; starting the web host instead.')
const child = binary
  ? spawn(binary, [join(root, 'out/main/index.js'), ...passOn], { stdio: 'inherit' })
  : spawn(process.execPath, [join(root, 'out/main/web.js'), ...passOn], { stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code) => process.exit(code ?? 0))

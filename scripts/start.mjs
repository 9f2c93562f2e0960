#!/usr/bin/env node
/**
 * `npm start [-- --web] [-- --open] [-- --port N --data-dir DIR]`: builds what is stale, then
 * starts Chainscope on the embedded sandbox. The desktop app runs where the Electron runtime is
 * installed (it is fetched once if it can be); otherwise, or with `--web`, the web host starts.
 *
 * It speaks one line per event and no stack traces for expected conditions (no runtime,
 * offline, port taken): what happened and what to do. With the web host, the last line is its
 * address; `--open` also opens it in the default browser (through launch-page.mjs).
 *
 * Fault injection for scripts/start.test.ts: CHAINSCOPE_ELECTRON_DIR (the electron package
 * folder) and CHAINSCOPE_OPENER (the command that opens a URL).
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { writeLaunchPage } from './launch-page.mjs'
import { describeFetchFailure, describeWebHostFailure, openerFor, portOf } from './start-messages.mjs'

const root = join(import.meta.dirname, '..')
const args = process.argv.slice(2)
const wantWeb = args.includes('--web')
const wantOpen = args.includes('--open')
const passOn = args.filter((a) => a !== '--web' && a !== '--open')
const say = (line) => process.stdout.write(`${line}\n`)

function newest(dir) {
  let t = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // Dot folders hold run-time data (the sandbox's `.state` cache); seed-state is not bundled.
    if (entry.name.startsWith('.') || entry.name === 'seed-state') continue
    const p = join(dir, entry.name)
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs)
  }
  return t
}

function buildIfStale() {
  const builtAt = existsSync(join(root, 'out/main/web.js')) ? statSync(join(root, 'out/main/web.js')).mtimeMs : 0
  // The build bundles sandbox/ too (out/main/sandbox.js).
  if (builtAt !== 0 && Math.max(newest(join(root, 'src')), newest(join(root, 'sandbox'))) <= builtAt) return
  say(builtAt === 0 ? 'Building Chainscope (once; about 10 s)…' : 'Sources changed: rebuilding Chainscope…')
  const started = Date.now()
  const r = spawnSync(join(root, 'node_modules/.bin/electron-vite'), ['build'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0' },
  })
  if (r.status !== 0) {
    // Not an expected condition: the compiler's own words are what helps here.
    process.stderr.write(`${`${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-25).join('\n')}\n`)
    say(
      `The build failed (${r.error ? r.error.message : `exit ${r.status}`}): fix the errors above, then run npm start again.`,
    )
    process.exit(1)
  }
  say(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.`)
}

function electronBinary() {
  let dir = process.env.CHAINSCOPE_ELECTRON_DIR
  try {
    dir ??= dirname(createRequire(import.meta.url).resolve('electron/package.json'))
  } catch {
    say('The electron package is not installed (run npm ci); using the web host instead.')
    return null
  }
  const pathFile = join(dir, 'path.txt')
  // One failed fetch is remembered, so a machine without network does not wait at every start.
  const failedMarker = join(dirname(dir), '.cache', 'chainscope-electron-fetch-failed')
  if (!existsSync(pathFile)) {
    if (existsSync(failedMarker)) {
      say(
        `No Electron runtime (its download failed before); using the web host. To try the download again: rm ${failedMarker}`,
      )
      return null
    }
    say('Fetching the Electron runtime (once, about 100 MB)…')
    const r = spawnSync(process.execPath, [join(dir, 'install.js')], { encoding: 'utf8', timeout: 120_000 })
    if (r.status !== 0 || !existsSync(pathFile)) {
      mkdirSync(dirname(failedMarker), { recursive: true })
      writeFileSync(failedMarker, `${new Date().toISOString()}\n`)
      say(`${describeFetchFailure(r)}; using the web host instead. To try again later: rm ${failedMarker}`)
      return null
    }
  }
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim())
  if (existsSync(binary)) return binary
  say(
    `The Electron runtime is incomplete (${binary} is missing); using the web host. To repair it: npx install-electron`,
  )
  return null
}

/** Opens the address through a page only this user can read (launch-page.mjs): never on a command line. */
function openInBrowser(url) {
  const opener = openerFor(process.platform, process.env.CHAINSCOPE_OPENER)
  let reported = false
  let page = null
  const fail = (why) => {
    page?.remove()
    if (reported) return
    reported = true
    // Ends with the address, so the address stays the last thing printed.
    say(`Could not open a browser (${why}); open this address yourself: ${url}`)
  }
  try {
    page = writeLaunchPage(url)
    // The browser reads the page within seconds; after a minute it is of no use to anyone.
    setTimeout(() => page.remove(), 60_000).unref()
    process.once('exit', () => page.remove())
    const child = spawn(opener.command, [...opener.args, page.fileUrl], { stdio: 'ignore', detached: true })
    child.once('error', (error) => fail(error.code === 'ENOENT' ? `${opener.command} not found` : error.message))
    child.once('exit', (code) => {
      if (code !== 0 && code !== null) fail(`${opener.command} exited with ${code}`)
    })
    child.unref()
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error))
  }
}

function startWebHost() {
  const child = spawn(process.execPath, [join(root, 'out/main/web.js'), ...passOn], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  const tail = []
  let ready = false
  createInterface({ input: child.stderr }).on('line', (line) => {
    tail.push(line)
    if (tail.length > 20) tail.shift()
    // Once running, warnings and errors are events worth a line; routine info goes to the log file.
    if (ready && / (warn|error) /.test(line)) process.stderr.write(`${line}\n`)
  })
  const timer = setTimeout(() => {
    say(
      'The web host did not start within 60 s; see the lines above, or the log in the data folder, then run npm start again.',
    )
    child.kill('SIGTERM')
  }, 60_000)
  createInterface({ input: child.stdout }).on('line', (line) => {
    const match = /^Chainscope web host: (\S+)$/.exec(line)
    if (!match || ready) return
    ready = true
    clearTimeout(timer)
    say(`Chainscope web host: ${match[1]}`)
    if (wantOpen) openInBrowser(match[1])
  })
  child.on('exit', (code, signal) => {
    clearTimeout(timer)
    if (!ready) {
      say(describeWebHostFailure(tail.join('\n'), portOf(passOn)))
      process.exit(code || 1)
    }
    if (code) say(`The web host stopped unexpectedly (exit ${code}); run npm start again.`)
    process.exit(signal ? 0 : (code ?? 0))
  })
}

buildIfStale()
const binary = wantWeb ? null : electronBinary()
if (binary) {
  say('Starting the desktop app…')
  const child = spawn(binary, [join(root, 'out/main/index.js'), ...passOn], { stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
  child.on('exit', (code) => process.exit(code ?? 0))
} else {
  startWebHost()
}

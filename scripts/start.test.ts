import { spawn } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * `npm start` (scripts/start.mjs) as a real child process. The Electron runtime is faked (a
 * package folder whose install.js fails the way an offline fetch does: a TypeError stack),
 * and so is the browser opener; the build and the web host are real.
 */
const ROOT = resolve(import.meta.dirname, '..')
let tmp: string

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'npm-start-'))
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

interface Run {
  lines: () => string[]
  /** Resolves with the first line matching, or rejects when the process ends first. */
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<string>
  exited: Promise<number | null>
  stop: () => Promise<number | null>
}

function runStart(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs'), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  })
  let output = ''
  const onData = (chunk: Buffer): void => {
    output += chunk.toString()
  }
  child.stdout.on('data', onData)
  child.stderr.on('data', onData)
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
  const lines = (): string[] => output.split('\n').filter((l) => l.trim() !== '')
  const waitFor = async (pattern: RegExp, timeoutMs = 150_000): Promise<string> => {
    const deadline = Date.now() + timeoutMs
    let ended = false
    void exited.then(() => (ended = true))
    for (;;) {
      const hit = lines().find((l) => pattern.test(l))
      if (hit) return hit
      if (ended || Date.now() > deadline) throw new Error(`no line matching ${pattern}; output:\n${output}`)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  // SIGTERM reaches start.mjs, which passes it to the web host and exits with it.
  const stop = (): Promise<number | null> => {
    child.kill('SIGTERM')
    return Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 10_000))]).then((code) => {
      child.kill('SIGKILL')
      return code
    })
  }
  return { lines, waitFor, exited, stop }
}

/** The processes whose command line (as /proc shows it to every account) contains `text`. */
function commandLinesWith(text: string): string[] {
  const hits: string[] = []
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let cmdline = ''
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    } catch {
      continue // gone meanwhile
    }
    if (cmdline.includes(text)) hits.push(`${pid}: ${cmdline.replaceAll('\0', ' ')}`)
  }
  return hits
}

/** A package folder like node_modules/electron without a runtime, whose download fails offline. */
function fakeElectronWithoutRuntime(): string {
  const dir = join(mkdtempSync(join(tmp, 'modules-')), 'electron')
  mkdirSync(dir)
  writeFileSync(
    join(dir, 'install.js'),
    `console.log('Downloading Electron binary...')
console.error('TypeError: fetch failed\\n    at node:internal/deps/undici/undici:14976:13\\n    at async downloadArtifact (/x/node_modules/@electron/get/dist/index.js:1:1) {\\n  [cause]: Error: getaddrinfo EAI_AGAIN github.com')
process.exit(1)
`,
  )
  return dir
}

const ADDRESS = /^Chainscope web host: http:\/\/127\.0\.0\.1:\d+\/\S*$/
const STACK = /^\s+at |TypeError|\[cause\]/

describe('npm start', () => {
  it('without an Electron runtime and offline: one line each, no stack trace, the web host address last', async () => {
    const electronDir = fakeElectronWithoutRuntime()
    const env = { CHAINSCOPE_ELECTRON_DIR: electronDir }
    const first = runStart(['--port', '0', '--data-dir', join(tmp, 'data1')], env)
    try {
      await first.waitFor(ADDRESS)
      const lines = first.lines()
      expect(lines.filter((l) => STACK.test(l))).toEqual([])
      expect(lines).toContain(
        `The Electron runtime could not be downloaded (no connection to its download server); using the web host instead. To try again later: rm ${join(electronDir, '..', '.cache', 'chainscope-electron-fetch-failed')}`,
      )
      expect(lines.at(-1)).toMatch(ADDRESS)
    } finally {
      await first.stop()
    }
    // The failure is remembered: the next start does not wait for the download again.
    const second = runStart(['--port', '0', '--data-dir', join(tmp, 'data2')], env)
    try {
      await second.waitFor(ADDRESS)
      expect(
        second.lines().some((l) => /^No Electron runtime \(its download failed before\); using the web host/.test(l)),
      ).toBe(true)
      expect(second.lines().some((l) => /Fetching the Electron runtime/.test(l))).toBe(false)
      expect(second.lines().at(-1)).toMatch(ADDRESS)
    } finally {
      await second.stop()
    }
  }, 200_000)

  it('says in one line when the port is taken, and exits non-zero', async () => {
    const server: Server = createServer()
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as { port: number }).port
    try {
      const run = runStart(['--web', '--port', String(port), '--data-dir', join(tmp, 'data3')])
      const code = await run.exited
      expect(code).not.toBe(0)
      expect(run.lines().filter((l) => STACK.test(l))).toEqual([])
      expect(run.lines().at(-1)).toBe(
        `Port ${port} is already in use (another Chainscope, or another program): stop it, or start on another port with npm start -- --port ${port + 1}`,
      )
    } finally {
      await new Promise((r) => server.close(r))
    }
  }, 200_000)

  it('--open hands the address to the opener in a file only the user reads, never on a command line', async () => {
    const opener = join(tmp, 'opener.sh')
    const seen = join(tmp, 'seen')
    mkdirSync(seen)
    // Records what any local account could read of it (its /proc cmdline) and what the file gave it.
    writeFileSync(
      opener,
      `#!/bin/sh
tr '\\0' ' ' < /proc/$$/cmdline > '${seen}/cmdline'
f=$(printf '%s' "$1" | sed 's#^file://##')
stat -c '%a' "$f" > '${seen}/file-mode'
stat -c '%a' "$(dirname "$f")" > '${seen}/dir-mode'
cat "$f" > '${seen}/page'
`,
    )
    chmodSync(opener, 0o755)
    const run = runStart(['--web', '--open', '--port', '0', '--data-dir', join(tmp, 'data4')], {
      CHAINSCOPE_OPENER: opener,
    })
    try {
      const line = await run.waitFor(ADDRESS)
      const url = line.slice('Chainscope web host: '.length)
      const token = new URL(url).searchParams.get('token')!
      expect(token.length).toBeGreaterThanOrEqual(32)
      await expect.poll(() => existsSync(join(seen, 'page')), { timeout: 10_000 }).toBe(true)
      const cmdline = readFileSync(join(seen, 'cmdline'), 'utf8')
      expect(cmdline).not.toContain(token)
      expect(cmdline).toMatch(/ file:\/\/\S+\.html $/)
      await expect.poll(() => readFileSync(join(seen, 'page'), 'utf8'), { timeout: 5000 }).toContain(url)
      expect(readFileSync(join(seen, 'file-mode'), 'utf8').trim()).toBe('600')
      expect(readFileSync(join(seen, 'dir-mode'), 'utf8').trim()).toBe('700')
      // No process on the machine has the token on its command line (start.mjs, the host, the opener).
      expect(commandLinesWith(token)).toEqual([])
      expect(run.lines().at(-1)).toBe(line)
    } finally {
      await run.stop()
    }
  }, 200_000)

  it('--open without a working opener: one line ending with the address, and the host keeps running', async () => {
    const run = runStart(['--web', '--open', '--port', '0', '--data-dir', join(tmp, 'data5')], {
      CHAINSCOPE_OPENER: join(tmp, 'no-such-opener'),
    })
    try {
      const line = await run.waitFor(ADDRESS)
      const url = line.slice('Chainscope web host: '.length)
      const failure = await run.waitFor(/^Could not open a browser/, 10_000)
      expect(failure).toBe(
        `Could not open a browser (${join(tmp, 'no-such-opener')} not found); open this address yourself: ${url}`,
      )
      expect(run.lines().at(-1)).toBe(failure)
      expect(run.lines().filter((l) => STACK.test(l))).toEqual([])
      // Still serving (any HTTP answer will do: the token is for the browser's first visit).
      expect((await fetch(new URL(url).origin, { redirect: 'manual' })).status).toBeGreaterThanOrEqual(200)
    } finally {
      await run.stop()
    }
  }, 200_000)
})

import type { Page } from '@playwright/test'
import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'

const ROOT = resolve(import.meta.dirname, '..')

/**
 * Stops a child and waits until it has exited: SIGTERM, then SIGKILL if it is still there after
 * `graceMs` (the web host exits within 2 s of SIGTERM; the default leaves room). Resolves at once
 * for a child already gone. Every caller awaits it, so no run leaves a host behind.
 */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  child.kill('SIGTERM')
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), graceMs)))
  if ((await Promise.race([exited, late])) === 'late') {
    child.kill('SIGKILL')
    await exited
  }
  clearTimeout(timer)
}

/**
 * Starts the built web host (`out/main/web.js`) on a free port with `dataDir` and resolves with
 * the opening URL from its ready line. Used by the e2e fixture and by `bench:ui`.
 */
export async function startWebHostProcess(
  dataDir: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; url: string; origin: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'out/main/web.js'), '--port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  })
  let stderr = ''
  // Read stderr continuously: an unread pipe would eventually block the host.
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  const lines = createInterface({ input: child.stdout! })
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      // Not left running: the caller never gets a handle to stop it.
      child.kill('SIGKILL')
      reject(new Error(`web host did not start in 30 s:\n${stderr}`))
    }, 30_000)
    lines.on('line', (line) => {
      const match = /^Chainscope web host: (\S+)$/.exec(line)
      if (match?.[1]) {
        clearTimeout(timer)
        resolveUrl(match[1])
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`web host exited with ${code}:\n${stderr}`))
    })
  })
  return { child, url, origin: new URL(url).origin }
}

/**
 * Opens the web host's address in `page` and waits for the app: the token exchange answers a
 * page that moves on to the app by itself (src/main/web/web-host.ts). The address works once.
 */
export async function openWebHost(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await page.waitForURL((at) => !at.searchParams.has('token'))
}

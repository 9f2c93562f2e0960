import { test as base, _electron, type Page } from '@playwright/test'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { electronRuntime } from './electron-runtime'

export interface AppFixtureOptions {
  appHost: 'web' | 'electron'
}

export interface AppFixtures {
  /** The app's data folder for this test (fresh per test). */
  dataDir: string
  /** The app's page, whichever host runs it. */
  app: Page
  /** The web host's origin and opening URL (web project only). */
  webHost: { origin: string; url: string } | null
}

const ROOT = resolve(import.meta.dirname, '..')

export async function startWebHostProcess(dataDir: string): Promise<{ child: ChildProcess; url: string; origin: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'out/main/web.js'), '--port', '0', '--data-dir', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env },
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  const lines = createInterface({ input: child.stdout! })
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`web host did not start in 30 s:\n${stderr}`)), 30_000)
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

export const test = base.extend<AppFixtures & AppFixtureOptions & { electronGate: void }>({
  appHost: ['web', { option: true }],

  // Runs before any other fixture, so a missing runtime skips the test before a browser starts.
  electronGate: [
    async ({ appHost }, use, testInfo) => {
      if (appHost === 'electron') {
        const runtime = electronRuntime()
        if ('missing' in runtime) testInfo.skip(true, `Electron fixture skipped: ${runtime.missing}.`)
      }
      await use()
    },
    { auto: true },
  ],

  dataDir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'chainscope-e2e-'))
    await use(dir)
    rmSync(dir, { recursive: true, force: true })
  },

  webHost: async ({ appHost, dataDir }, use) => {
    if (appHost !== 'web') return use(null)
    const host = await startWebHostProcess(dataDir)
    await use({ origin: host.origin, url: host.url })
    host.child.kill('SIGTERM')
    await new Promise((r) => host.child.once('exit', r))
  },

  // Not built on Playwright's `page`: that would start a browser in the Electron project too.
  app: async ({ appHost, webHost, dataDir, playwright, launchOptions }, use) => {
    if (appHost === 'web') {
      const browser = await playwright.chromium.launch(launchOptions)
      const page = await browser.newPage()
      await page.goto(webHost!.url)
      await use(page)
      await browser.close()
      return
    }
    const runtime = electronRuntime()
    if ('missing' in runtime) throw new Error(runtime.missing)
    // The app folder (not the bundle) so Electron reads package.json: name, version, main.
    // The data folder goes both ways the app honours (src/main/electron/data-dir.ts).
    const electronApp = await _electron.launch({
      executablePath: runtime.path,
      args: [ROOT, `--user-data-dir=${dataDir}`],
      cwd: ROOT,
      env: { ...process.env, CHAINSCOPE_DATA_DIR: dataDir },
    })
    const window = await electronApp.firstWindow()
    await use(window)
    await electronApp.close()
  },
})

export { expect } from '@playwright/test'

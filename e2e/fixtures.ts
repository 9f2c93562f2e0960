import { test as base, _electron, type Page } from '@playwright/test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { electronRuntime } from './electron-runtime'
import { openWebHost, startWebHostProcess, stopChild } from './web-host-process'

export interface AppFixtureOptions {
  appHost: 'web' | 'electron'
  /** Extra flags for the built-in sandbox (CHAINSCOPE_SANDBOX_ARGS), e.g. an empty --state-dir. Default none. */
  sandboxArgs: string
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

export const test = base.extend<AppFixtures & AppFixtureOptions & { electronGate: void }>({
  appHost: ['web', { option: true }],
  sandboxArgs: ['', { option: true }],

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

  webHost: async ({ appHost, dataDir, sandboxArgs }, use) => {
    if (appHost !== 'web') return use(null)
    const host = await startWebHostProcess(dataDir, sandboxArgs ? { CHAINSCOPE_SANDBOX_ARGS: sandboxArgs } : {})
    await use({ origin: host.origin, url: host.url })
    await stopChild(host.child)
  },

  // Not built on Playwright's `page`: that would start a browser in the Electron project too.
  app: async ({ appHost, webHost, dataDir, playwright, launchOptions }, use) => {
    if (appHost === 'web') {
      const browser = await playwright.chromium.launch(launchOptions)
      const page = await browser.newPage()
      await openWebHost(page, webHost!.url)
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

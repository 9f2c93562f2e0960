import { defineConfig } from '@playwright/test'
import type { AppFixtureOptions } from './e2e/fixtures'

/**
 * One suite, two fixtures (docs/architecture.md, e2e/): the web host in Debian Chromium runs
 * everywhere; Electron runs where its runtime is installed and reports itself skipped,
 * with the reason, where it is not.
 */
export default defineConfig<AppFixtureOptions>({
  testDir: './e2e',
  outputDir: './test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e-report.json' }]],
  use: {
    // A click on a control that never becomes enabled fails with its locator, not the test timeout.
    actionTimeout: 30_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'web',
      use: {
        appHost: 'web',
        browserName: 'chromium',
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
            '--disable-sync',
            '--disable-quic',
          ],
        },
      },
    },
    {
      name: 'electron',
      use: { appHost: 'electron' },
    },
  ],
})

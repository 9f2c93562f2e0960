import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from './fixtures'

/**
 * Progress for anything over a second: a sandbox that has to seed (a non-default --seed-txs
 * and an empty state folder, so neither the cache nor the shipped state applies) shows a bar
 * per network on the welcome screen; "Load all" shows a bar with a cancel.
 */
const stateDir = mkdtempSync(join(tmpdir(), 'e2e-seed-progress-'))
test.use({ sandboxArgs: `--state-dir ${stateDir} --seed-txs 200` })
test.afterAll(() => rmSync(stateDir, { recursive: true, force: true }))

test('the sandbox start and "Load all" show progress bars; Load all can be cancelled', async ({ app: page }) => {
  test.setTimeout(300_000)
  const main = page.getByRole('main')

  await page.getByRole('button', { name: 'Start the sandbox' }).click()
  const starting = page.getByRole('group', { name: 'Sandbox start progress' })
  // Seeding has counts: a determinate bar per network, named with its stage and numbers.
  await expect(
    starting.getByRole('progressbar', { name: /^Preparing Alpha: seeding transactions, [\d,]+ of [\d,]+$/ }),
  ).toBeVisible({ timeout: 60_000 })
  await expect(starting.getByRole('progressbar', { name: /^Preparing Beta: / })).toBeVisible()
  const seeding = starting.getByRole('progressbar', { name: /^Preparing Alpha: seeding/ })
  expect(Number(await seeding.getAttribute('max'))).toBeGreaterThan(200)
  await expect(page.getByRole('heading', { level: 1, name: 'Open an address' })).toBeVisible({ timeout: 240_000 })
  await expect(starting).toHaveCount(0)

  // Slow limits (Settings) so that loading every page takes long enough to watch and cancel.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
  await page.getByLabel('Requests per second').fill('1')
  await page.getByLabel('Burst', { exact: true }).fill('1')
  await page.getByRole('button', { name: 'Save limits' }).click()
  await page.getByRole('link', { name: 'Chainscope home' }).click()
  await main
    .getByRole('button', { name: 'Open the sample wallet: Busy wallet: thousands of transactions, many tokens' })
    .click()
  await main.getByRole('tab', { name: 'Transactions' }).click()
  await main.getByRole('button', { name: 'Load all' }).click()
  await expect(
    main.getByRole('progressbar', { name: /^Loading all transactions: [\d,]+ transactions in \d+ pages$/ }),
  ).toBeVisible()
  await main.getByRole('button', { name: 'Cancel loading' }).click()
  await expect(
    main.getByRole('status').filter({ hasText: /^Stopped at [\d,]+ transactions in \d+ pages\.$/ }),
  ).toBeVisible()
  await expect(main.getByRole('progressbar', { name: /^Loading all transactions/ })).toHaveCount(0)
})

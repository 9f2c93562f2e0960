import { randomBytes } from 'node:crypto'
import { expect, test } from './fixtures'
import {
  connectService,
  sandboxTransfer,
  shootBothThemes,
  startServiceSandbox,
  unnamedControls,
  type ServiceSandbox,
} from './ui-helpers'

/**
 * Watchlists that watch, on the web host against a fresh sandbox (with --admin, so the test can move funds):
 * the header height is live from the first minute; a watchlist of the sample wallets is
 * checked for changes (its cost shown before it runs), the sandbox sends coin and a token to
 * two of them, the next check marks exactly those entries "new", and "Mark seen" clears it.
 */
test('the height is live from the first minute, and the watch check finds the entries that received funds', async ({
  app: page,
}, testInfo) => {
  test.setTimeout(180_000)
  const apiKey = `e2e_${randomBytes(12).toString('hex')}`
  let service: ServiceSandbox | null = await startServiceSandbox(['--api-key', apiKey, '--admin'])
  try {
    const info = service.info
    const wallets = info.demo_addresses.alpha!
    // Not the deployer: it sends the admin token mints, so it changes too.
    const roles = ['whale', 'holder', 'empty', 'vault', 'registry'].filter((r) => wallets[r])

    await test.step('connect; the header height advances within the first minute', async () => {
      await page.getByLabel('Profile name').fill('Local service')
      await page.getByLabel('First network label').fill('Alpha')
      await page.getByLabel('Second network label').fill('Beta')
      await connectService(page, info, apiKey)
      const connectedAt = Date.now()
      const badge = page.getByRole('group', { name: 'Alpha block height and gas price' })
      // The height's own element (its title tells when it was observed), not the whole group: the gas price follows it.
      const height = badge.getByTitle(/observed/)
      const heightNow = async (): Promise<number> =>
        (await height.count()) === 0 ? Number.NaN : Number(((await height.textContent()) ?? '').replace(/[^\d]/g, ''))
      await expect.poll(heightNow, { timeout: 30_000 }).toBeGreaterThan(0)
      const first = await heightNow()
      await expect.poll(heightNow, { timeout: 60_000 - (Date.now() - connectedAt) }).toBeGreaterThan(first)
      const advancedAfter = (Date.now() - connectedAt) / 1000
      testInfo.annotations.push({
        type: 'height advanced',
        description: `from #${first} to #${await heightNow()} within ${advancedAfter.toFixed(1)} s of connecting`,
      })
      // Keeps going: a minute in, it is still advancing (not a single correction).
      const later = await heightNow()
      await expect.poll(heightNow, { timeout: 15_000 }).toBeGreaterThan(later)
    })

    await test.step('a watchlist of the sample wallets', async () => {
      await page.getByRole('link', { name: 'Watchlists' }).click()
      const csv = ['list,address,network,label', ...roles.map((r) => `Samples,${wallets[r]},alpha,${r}`)].join('\r\n')
      await page
        .getByLabel('Import watchlists file')
        .setInputFiles({ name: 'samples.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
      await expect(page.getByRole('button', { name: 'Open whale' })).toBeVisible()
      // The cost is shown before the check runs, in the profile's unit (per call plus one per batch
      // unless told otherwise): one batch for the five addresses.
      await expect(page.getByLabel(/^Check for changes costs \d+ units \(/)).toBeVisible({ timeout: 15_000 })
    })

    const check = page.getByRole('button', { name: 'Check for changes' })
    await test.step('the first check sets the baseline: nothing is new', async () => {
      await check.click()
      await expect(
        page.getByRole('status').filter({ hasText: `Checked ${roles.length} addresses: 0 changed` }),
      ).toBeVisible({ timeout: 30_000 })
      await expect(page.getByText('nothing new')).toHaveCount(roles.length)
    })

    await test.step('the sandbox moves funds; the next check marks exactly those entries new', async () => {
      for (const [to, kind] of [
        [wallets.empty!, 'native'],
        [wallets.holder!, 'erc20'],
      ] as const) {
        await sandboxTransfer(info, { network: 'alpha', to, kind })
      }
      await check.click()
      await expect(
        page.getByRole('status').filter({ hasText: `Checked ${roles.length} addresses: 2 changed` }),
      ).toBeVisible({ timeout: 30_000 })
      await expect(page.getByRole('status', { name: 'empty: new since last look' })).toBeVisible()
      await expect(page.getByRole('status', { name: 'holder: new since last look' })).toBeVisible()
      await expect(page.getByRole('status', { name: 'whale: new since last look' })).toHaveCount(0)
      // The coin transfer and the token mint are each one transaction of the receiver.
      await expect(page.getByText('1 new transaction', { exact: true })).toHaveCount(2)
      await expect(page.getByText('+1 SDL', { exact: true })).toBeVisible()
      await expect(page.getByText('+0.001 Alpha coin', { exact: true })).toBeVisible()
      await shootBothThemes(page, testInfo, 'watch-check-new')
      expect(await unnamedControls(page), 'controls without a name on the watchlist').toEqual([])
    })

    await test.step('mark seen clears the mark', async () => {
      await page.getByRole('button', { name: 'Mark empty seen' }).click()
      await expect(page.getByRole('status', { name: 'empty: new since last look' })).toHaveCount(0)
      await expect(page.getByRole('status', { name: 'holder: new since last look' })).toBeVisible()
      await page.getByRole('button', { name: 'Mark all seen (1)' }).click()
      await expect(page.getByText('nothing new')).toHaveCount(roles.length)
    })
  } finally {
    await service?.stop()
    service = null
  }
})

import { randomBytes } from 'node:crypto'
import { expect, test } from './fixtures'
import { connectService, startServiceSandbox, type ServiceSandbox } from './ui-helpers'

/**
 * The app against a sandbox playing a provider as documented ones behave: billing per call plus
 * one per batch, batches capped at 50 (geth's "batch too large"), eth_getLogs capped at 1,000
 * blocks, no `finalized` tag, every 10th call in a batch refused for rate. What the user sees:
 * a live height, costs and the quota meter in units, both networks read with no "unknown".
 */
test('a provider billing per call, with capped batches and log ranges and no finalized tag: live height, costs in units', async ({
  app: page,
}) => {
  test.setTimeout(180_000)
  const apiKey = `e2e_${randomBytes(12).toString('hex')}`
  const args = ['--api-key', apiKey, '--billing', 'call-plus-batch', '--batch-cap', '50', '--log-cap', '1000']
  let service: ServiceSandbox | null = await startServiceSandbox([...args, '--no-finalized', '--item-errors', '10'])
  try {
    const info = service.info
    const main = page.getByRole('main')

    await test.step('the setup form says how the service counts, and keeps the safest guess', async () => {
      await expect(page.getByLabel('The service counts')).toHaveValue('call-plus-batch')
      await expect(page.getByText('a batch of N calls costs N + 1 (the safest guess)')).toBeVisible()
      await page.getByLabel('First network label').fill('Alpha')
      await page.getByLabel('Second network label').fill('Beta')
      await connectService(page, info, apiKey)
    })

    await test.step('the header height is live without a finalized tag', async () => {
      const height = page.getByRole('group', { name: 'Alpha block height and gas price' }).getByTitle(/observed/)
      const heightNow = async (): Promise<number> =>
        (await height.count()) === 0 ? Number.NaN : Number(((await height.textContent()) ?? '').replace(/[^\d]/g, ''))
      await expect.poll(heightNow, { timeout: 30_000 }).toBeGreaterThan(0)
      const first = await heightNow()
      await expect.poll(heightNow, { timeout: 60_000 }).toBeGreaterThan(first)
    })

    await test.step('both networks of the busy wallet, its cost in units, nothing unknown', async () => {
      const search = page.getByRole('combobox', { name: 'Address' })
      await search.fill(info.demo_addresses.alpha!.whale!)
      await search.press('Enter')
      const both = main.getByRole('region', { name: 'Both networks' })
      await expect(both.getByRole('listitem')).toHaveCount(2, { timeout: 20_000 })
      await expect(both.getByRole('listitem').first()).toContainText('has balances')
      // Two single calls on each network (a batch of two would cost its own unit more).
      await expect(both).toContainText('This check cost 4 units')
      await expect(both).not.toContainText(/unknown/i)
      await expect(page.getByRole('meter', { name: 'Daily request quota' })).toHaveAttribute(
        'aria-valuetext',
        /^\d+ of 1000 units used today/,
      )
    })

    await test.step('the watch check: its cost before it runs and after, in units, a few for the list', async () => {
      const wallets = info.demo_addresses.alpha!
      const roles = ['whale', 'holder', 'empty'].filter((r) => wallets[r])
      await page.getByRole('link', { name: 'Watchlists' }).click()
      const csv = ['list,address,network,label', ...roles.map((r) => `Samples,${wallets[r]},alpha,${r}`)].join('\r\n')
      await page
        .getByLabel('Import watchlists file')
        .setInputFiles({ name: 'samples.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
      await expect(page.getByLabel(/^Check for changes costs \d+ units? \(/)).toBeVisible({ timeout: 15_000 })
      const check = page.getByRole('button', { name: 'Check for changes' })
      await check.click()
      await expect(
        page.getByRole('status').filter({ hasText: `Checked ${roles.length} addresses: 0 changed` }),
      ).toBeVisible({ timeout: 30_000 })
      // The next check: the balances in one call and three log filters (4 units), or the balances
      // alone when no block came since; never a call per address.
      await check.click()
      await expect(
        page
          .getByRole('status')
          .filter({ hasText: new RegExp(`Checked ${roles.length} addresses: 0 changed, [1-5] units?\\.$`) }),
      ).toBeVisible({ timeout: 30_000 })
      await expect(page.getByRole('status').filter({ hasText: /Note:/ })).toHaveCount(0)
    })

    await test.step('Settings: the limits are in units, the choice kept', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
      await expect(page.getByLabel('Units per day')).toHaveValue('1000')
      await expect(page.getByLabel('The service counts')).toHaveValue('call-plus-batch')
    })
    await expect(main.getByRole('alert')).toHaveCount(0)
  } finally {
    await service?.stop()
    service = null
  }
})

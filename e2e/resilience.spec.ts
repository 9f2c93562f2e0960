import { randomBytes } from 'node:crypto'
import { expect, test } from './fixtures'
import { connectService, setFaults, shootBothThemes, startServiceSandbox } from './ui-helpers'

/** Typed errors from main reach the user as a clear message with a way forward. */
test('a misbehaving service: unreadable, overloaded and failing answers each get a clear message and a retry', async ({
  app,
}, testInfo) => {
  test.setTimeout(120_000)
  const page = app
  const key = `e2e_${randomBytes(10).toString('hex')}`
  const service = await startServiceSandbox(['--api-key', key, '--admin'])
  try {
    await connectService(page, service.info, key)
    const whale = service.info.demo_addresses.alpha!.whale!
    const main = page.getByRole('main')

    await setFaults(service.info, { mode: 'malformed', match: 'balance', times: null })
    await page.getByRole('combobox', { name: 'Address' }).fill(whale)
    await page.getByRole('combobox', { name: 'Address' }).press('Enter')
    const alert = main.getByRole('alert')
    await expect(alert).toContainText(
      'Balances could not be loaded: The service sent an answer Chainscope cannot read',
      { timeout: 20_000 },
    )
    await shootBothThemes(page, testInfo, '12-error-unreadable')
    await setFaults(service.info, null)
    await alert.getByRole('button', { name: 'Retry' }).click()
    await expect(main.getByRole('table', { name: 'Token balances' }).getByRole('row').nth(1)).toBeVisible({
      timeout: 20_000,
    })
    await expect(alert).toHaveCount(0)

    await setFaults(service.info, { mode: 'storm429', match: 'transactions', times: null })
    await main.getByRole('tab', { name: 'Transactions' }).click()
    await expect(alert).toContainText('The service asked us to slow down', { timeout: 30_000 })
    await expect(alert.getByRole('button', { name: /^Retry/ })).toBeVisible()
    await setFaults(service.info, { mode: 'html', match: 'transactions', times: null })
    await expect(alert.getByRole('button', { name: 'Retry' })).toBeEnabled({ timeout: 15_000 })
    await alert.getByRole('button', { name: 'Retry' }).click()
    await expect(alert).toContainText('The service had a problem on its side', { timeout: 30_000 })
    await setFaults(service.info, null)
    await alert.getByRole('button', { name: 'Retry' }).click()
    await expect(main.getByRole('table', { name: 'Transactions' }).getByRole('row').nth(1)).toBeVisible({
      timeout: 20_000,
    })
    await expect(alert).toHaveCount(0)
  } finally {
    await service.stop()
  }
})

test('out of quota: network actions are disabled with the reason, data already loaded stays, raising the limit recovers', async ({
  app,
}, testInfo) => {
  test.setTimeout(120_000)
  const page = app
  const key = `e2e_${randomBytes(10).toString('hex')}`
  const service = await startServiceSandbox(['--api-key', key])
  try {
    await connectService(page, service.info, key)
    const { whale, holder } = service.info.demo_addresses.alpha!
    const main = page.getByRole('main')
    const search = page.getByRole('combobox', { name: 'Address' })
    await search.fill(whale!)
    await search.press('Enter')
    await expect(main.getByRole('table', { name: 'Token balances' }).getByRole('row').nth(1)).toBeVisible({
      timeout: 20_000,
    })

    // Lower today's limit to what is already used: the quota is exhausted now.
    const meter = page.getByRole('meter', { name: 'Daily request quota' })
    const used = await meter.getAttribute('aria-valuenow')
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
    await page.getByLabel('Units per day').fill(String(used))
    await page.getByRole('button', { name: 'Save limits' }).click()
    await expect(meter).toHaveAttribute('aria-valuetext', /, 0 left, resets at /)
    await page.goBack()

    await expect(main.getByRole('table', { name: 'Token balances' }).getByRole('row').nth(1)).toBeVisible()
    await expect(main.getByRole('button', { name: 'Refresh' })).toBeDisabled()
    await expect(
      main.getByRole('note').filter({ hasText: /^Today's request quota is used up; it resets at \d\d:\d\d\.$/ }),
    ).toBeVisible()
    await shootBothThemes(page, testInfo, '13-out-of-quota')

    await search.fill(holder!)
    await search.press('Enter')
    const alert = main.getByRole('alert')
    await expect(alert).toContainText("Today's request quota is used up", { timeout: 20_000 })
    await expect(alert.getByRole('link', { name: 'Open watchlists (saved data)' })).toBeVisible()
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'RPC console' }).click()
    await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled()
    await page.goBack()

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
    await page.getByLabel('Units per day').fill('1000')
    await page.getByRole('button', { name: 'Save limits' }).click()
    // Back on the address, it loads again by itself now that requests are allowed.
    await page.goBack()
    await expect(main.getByRole('table', { name: 'Token balances' }).getByRole('row').nth(1)).toBeVisible({
      timeout: 20_000,
    })
    await expect(main.getByRole('alert')).toHaveCount(0)
    await expect(main.getByRole('button', { name: 'Refresh' })).toBeEnabled()
  } finally {
    await service.stop()
  }
})

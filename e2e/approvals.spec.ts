import { randomBytes } from 'node:crypto'
import { auditBothThemes, describeFindings, BLOCKING_IMPACTS, BLOCKING_RULES } from './axe'
import { expect, test } from './fixtures'
import { connectService, openAddress, shootBothThemes, startServiceSandbox, type ServiceSandbox } from './ui-helpers'

/**
 * The approvals tab on the web host against a sandbox standing in for the service: the holder's
 * seeded approvals (unlimited, partly spent, NFT operators, one NFT, one revoked) found in its
 * first page and checked in one request; a revoke call copied; the whale's log scan offered
 * with its cost, run with progress, finding the Router's unlimited allowances.
 */
test('approvals: each kind shown, unlimited marked, revoked apart, a revoke call copied, the log scan', async ({
  app,
}, testInfo) => {
  test.setTimeout(240_000)
  const page = app
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  const key = `e2e_${randomBytes(10).toString('hex')}`
  const service: ServiceSandbox = await startServiceSandbox(['--api-key', key])
  try {
    await connectService(page, service.info, key)
    const { holder, whale } = service.info.demo_addresses.alpha!
    const main = page.getByRole('main')

    await test.step('holder: the seeded approvals, each kind, from its first page', async () => {
      await openAddress(page, holder!)
      await main.getByRole('tab', { name: 'Transactions' }).click()
      await expect(main.getByRole('table', { name: 'Transactions' }).getByRole('row').nth(1)).toBeVisible({
        timeout: 20_000,
      })
      await main.getByRole('tab', { name: 'Approvals' }).click()
      const live = main.getByRole('table', { name: 'Approvals in force' })
      await expect(live.getByRole('row')).toHaveCount(6, { timeout: 20_000 })
      await expect(live.getByRole('row', { name: /SGOV/ })).toContainText('Unlimited')
      await expect(live.getByRole('row', { name: /SDL/ })).toContainText('60 SDL of 100 granted')
      await expect(live.getByRole('row', { name: /SPUNK.*Operator/ })).toContainText('Every token of the collection')
      await expect(live.getByRole('row', { name: /SITEM.*Operator/ })).toBeVisible()
      await expect(live.getByRole('row', { name: /SPUNK.*One NFT/ })).toContainText('Token #3')
      const past = main.getByRole('table', { name: 'Revoked or spent approvals' })
      await expect(past.getByRole('row', { name: /SBTC/ })).toContainText('Revoked')
      // A service profile counts per call plus one per batch: the Multicall3 probe and the state call, in one batch.
      await expect(main.getByText('This check cost 3 units.')).toBeVisible()
      await main.getByRole('button', { name: /^Copy revoke call for SGOV to / }).click()
      await expect
        .poll(() => page.evaluate('navigator.clipboard.readText()'))
        .toMatch(/^to: 0x[0-9a-fA-F]{40}\ndata: 0x095ea7b3[0-9a-f]{128}$/)
      await shootBothThemes(page, testInfo, 'ap1-holder-approvals')
      const { findings } = await auditBothThemes(page, 'approvals')
      const blocking = findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact) || BLOCKING_RULES.includes(f.rule))
      expect(blocking, describeFindings(blocking)).toEqual([])
    })

    await test.step('whale: the log scan, offered with its cost, finds the unlimited Router allowances', async () => {
      await openAddress(page, whale!)
      await main.getByRole('tab', { name: 'Approvals' }).click()
      const scan = main.getByRole('button', { name: 'Scan all approval logs' })
      await expect(scan).toBeVisible({ timeout: 20_000 })
      await expect(main.getByLabel(/^Scan all approval logs costs \d+ units /)).toBeVisible()
      await scan.click()
      const live = main.getByRole('table', { name: 'Approvals in force' })
      await expect(live.getByRole('row').filter({ hasText: 'Unlimited' })).toHaveCount(5, { timeout: 30_000 })
      await expect(main.getByText(/and the approval logs of blocks 0–\d+/)).toBeVisible()
      await shootBothThemes(page, testInfo, 'ap2-whale-scanned')
    })
  } finally {
    await service.stop()
  }
})

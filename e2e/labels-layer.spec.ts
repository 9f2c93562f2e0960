import { auditBothThemes, BLOCKING_IMPACTS, BLOCKING_RULES, describeFindings } from './axe'
import { expect, test } from './fixtures'
import { openAddress, shootBothThemes, withConnectedSandbox } from './ui-helpers'

/**
 * Labels as one layer, and lists in bulk (issue 39 items 4 and 5), by role and name on the web
 * host: a label set on both networks names the address in a watchlist row and is the first search
 * hit for its name; three pasted addresses reach a watchlist after a preview; a label file with
 * one bad row shows that row and applies the good ones only after the choice.
 */
test('a label names its address everywhere; lists are pasted and imported in bulk with a preview', async ({
  app,
}, testInfo) => {
  test.setTimeout(300_000)
  const page = app
  const axe: string[] = []
  const audit = async (screen: string): Promise<void> => {
    const { findings } = await auditBothThemes(page, screen)
    axe.push(
      describeFindings(findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact) || BLOCKING_RULES.includes(f.rule))),
    )
  }
  await withConnectedSandbox(page, async (service) => {
    const demo = service.info.demo_addresses.alpha!
    const { whale, holder, contract: router, counterparty } = demo
    const main = page.getByRole('main')
    const search = page.getByRole('combobox', { name: 'Address' })
    const results = page.getByRole('region', { name: 'Cached search results' })

    await test.step('transactions naming the router are cached (the whale dealt with it)', async () => {
      await openAddress(page, whale!)
      await main.getByRole('tab', { name: 'Transactions' }).click()
      await expect(main.getByRole('table', { name: 'Transactions' }).getByRole('row').nth(1)).toBeVisible({
        timeout: 30_000,
      })
    })

    await test.step('label the router on both networks', async () => {
      await openAddress(page, router!)
      const editor = main.getByRole('group', { name: `Your label of ${router} on Alpha` })
      await editor.getByRole('button', { name: `Add label of ${router} on Alpha` }).click()
      await editor.getByRole('textbox', { name: 'Label', exact: true }).fill('Router')
      await editor.getByRole('textbox', { name: 'Label note' }).fill('swaps go through it')
      await editor.getByRole('checkbox', { name: 'Both networks' }).check()
      await editor.getByRole('button', { name: 'Save label' }).click()
      await expect(editor).toContainText('Your label: Router · swaps go through it')
      await expect(page.getByText(`Label saved for ${router} on Alpha and Beta`)).toBeVisible()
    })

    await test.step('the add-to-watchlist dialog starts with the label; a row without its own label shows it', async () => {
      await page.getByRole('button', { name: 'Add to watchlist' }).click()
      const dialog = page.getByRole('dialog', { name: 'Add to watchlist' })
      const label = dialog.getByLabel('Label')
      await expect(label).toHaveValue('Router')
      await label.fill('')
      await dialog.getByLabel('New watchlist name').fill('Desk')
      await dialog.getByRole('button', { name: 'Add' }).click()
      await dialog.waitFor({ state: 'hidden' })
      await page.getByRole('link', { name: 'Watchlists' }).click()
      const entries = main.getByRole('table', { name: 'Entries of Desk' })
      await expect(entries.getByRole('button', { name: 'Open Router' })).toHaveText('Router')
      await expect(entries).not.toContainText('Unlabelled')
    })

    await test.step('search "Router": the labelled address first, saying it matched the label', async () => {
      await search.fill('Router')
      const hits = results.getByRole('listitem')
      await expect(hits.first()).toBeVisible({ timeout: 15_000 })
      await expect(hits.first()).toContainText(/^Your label\s*Router \(0x/)
      await expect(hits.first()).toContainText('matched label')
      expect(await hits.count()).toBeGreaterThan(1)
      await search.fill('')
    })

    await test.step('paste three addresses into the watchlist: preview, then apply', async () => {
      const panel = main.getByRole('region', { name: 'Watchlist Desk' })
      await panel.getByRole('button', { name: 'Paste addresses…' }).click()
      const dialog = page.getByRole('dialog', { name: 'Paste addresses into Desk' })
      const text = [`address,label`, `${whale},Whale`, `${holder}; ${counterparty}`, whale, router, '0x1234'].join('\n')
      await dialog.getByRole('textbox', { name: 'Addresses, one per line or CSV' }).fill(text)
      await expect(dialog.getByRole('status')).toHaveText('3 new · 1 repeated · 1 already in Desk · 1 invalid')
      const preview = dialog.getByRole('table', { name: 'Preview of the pasted list' })
      await expect(preview.getByRole('row')).toHaveCount(7)
      await expect(preview.getByRole('row').filter({ hasText: 'invalid' })).toContainText('0x1234')
      await shootBothThemes(page, testInfo, 'll1-paste-preview', { fullPage: false })
      await audit('paste preview')
      await dialog.getByRole('button', { name: 'Add 3 new addresses' }).click()
      await dialog.waitFor({ state: 'hidden' })
      const entries = main.getByRole('table', { name: 'Entries of Desk' })
      await expect(entries.locator('tbody tr')).toHaveCount(4)
      await expect(entries.getByRole('button', { name: 'Open Whale' })).toBeVisible()
    })

    await test.step('a label file with one bad row: the row shown, the good rows applied after the choice', async () => {
      await page.getByRole('link', { name: 'Settings' }).click()
      const panel = main.getByRole('region', { name: 'Address labels' })
      await expect(panel).toContainText('2 labels kept')
      const csv = `address,label\n${whale},Busy whale\n0x12345,Broken\n${holder},Holder\n`
      await panel
        .getByLabel('Import labels file')
        .setInputFiles({ name: 'tags.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
      const bad = panel.getByRole('alert')
      await expect(bad).toContainText('1 row cannot be imported')
      const rows = bad.getByRole('table', { name: 'Rows that cannot be imported' }).getByRole('row')
      await expect(rows.nth(1)).toHaveText(/^3\s*column 1 \("address"\)\s*An address has 40 hex characters/)
      await expect(bad).toBeInViewport()
      await expect(panel).toContainText('2 labels kept')
      await shootBothThemes(page, testInfo, 'll2-label-bad-row', { fullPage: false })
      await audit('label import with a bad row')
      await panel.getByRole('button', { name: 'Apply the good rows, skip 1 bad' }).click()
      await expect(page.getByText('Labels imported: 2 added, 0 replaced, 0 kept as they were.')).toBeVisible()
      await expect(panel).toContainText('4 labels kept')
    })
  })
  expect(axe.join(''), axe.join('\n')).toBe('')
})

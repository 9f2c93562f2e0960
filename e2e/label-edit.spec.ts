import { expect, test } from './fixtures'
import { auditBothThemes, BLOCKING_IMPACTS, BLOCKING_RULES, describeFindings } from './axe'
import { openAddress, shootBothThemes, withConnectedSandbox } from './ui-helpers'

/**
 * A label typed on the busy sandbox address: added, changed from the value shown, found by the
 * cached search, then removed from Settings' list (and no longer found).
 */
test('labels: add, change and remove one label, found by search', async ({ app }, testInfo) => {
  test.setTimeout(180_000)
  const page = app
  await withConnectedSandbox(page, async (service) => {
    const { whale } = service.info.demo_addresses.alpha!
    await openAddress(page, whale!)
    const main = page.getByRole('main')
    const editor = main.getByRole('group', { name: `Your label of ${whale} on Alpha` })

    await test.step('add a label on the address page', async () => {
      await editor.getByRole('button', { name: `Add label of ${whale} on Alpha` }).click()
      await expect(editor.getByRole('status')).toHaveText('No label yet.')
      await editor.getByRole('textbox', { name: 'Label', exact: true }).fill('Whale cold')
      await editor.getByRole('textbox', { name: 'Label note' }).fill('seen in the sandbox')
      await editor.getByRole('button', { name: 'Save label' }).click()
      await expect(editor).toContainText('Your label: Whale cold · seen in the sandbox')
    })

    await test.step('change it: the form starts from the old value and says so', async () => {
      await editor.getByRole('button', { name: `Edit label of ${whale} on Alpha` }).click()
      await expect(editor.getByRole('status')).toHaveText('Changing “Whale cold” (note: seen in the sandbox).')
      const label = editor.getByRole('textbox', { name: 'Label', exact: true })
      await expect(label).toHaveValue('Whale cold')
      await label.fill('Whale vault')
      await shootBothThemes(page, testInfo, 'le1-label-editing')
      await editor.getByRole('button', { name: 'Save label' }).click()
      await expect(editor).toContainText('Your label: Whale vault')
    })

    const search = page.getByRole('combobox', { name: 'Address' })
    const results = page.getByRole('region', { name: 'Cached search results' })
    await test.step('the label is found by the cached search', async () => {
      await search.fill('vault')
      const hit = results.getByRole('button', { name: /Your label\s*Whale vault \(0x/ })
      await expect(hit).toBeVisible({ timeout: 15_000 })
      await search.fill('cold')
      await expect(results.getByRole('status')).toContainText('Nothing cached matches')
      await expect(results.getByRole('button', { name: /Your label/ })).toHaveCount(0)
      await search.fill('')
    })

    await test.step('remove it from the list in Settings', async () => {
      await page.getByRole('link', { name: 'Settings' }).click()
      const list = main.getByRole('table', { name: 'Your labels' })
      const row = list.getByRole('row').filter({ hasText: 'Whale vault' })
      await expect(row).toHaveCount(1)
      const { findings } = await auditBothThemes(page, 'le2-settings-labels')
      const blocking = findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact) || BLOCKING_RULES.includes(f.rule))
      expect(blocking, describeFindings(blocking)).toEqual([])
      await row.getByRole('button', { name: 'Remove label' }).click()
      const dialog = page.getByRole('alertdialog', { name: 'Remove the label “Whale vault”?' })
      await dialog.getByRole('button', { name: 'Remove', exact: true }).click()
      await expect(list).toHaveCount(0)
      await expect(main.getByRole('region', { name: 'Address labels' })).toContainText('0 labels kept')
      await search.fill('vault')
      await expect(results.getByRole('status')).toContainText('Nothing cached matches')
    })
  })
})

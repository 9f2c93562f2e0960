import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { auditBothThemes, BLOCKING_IMPACTS, BLOCKING_RULES, describeFindings } from './axe'
import { expect, test } from './fixtures'
import { connectService, shootBothThemes, startServiceSandbox, type ServiceSandbox } from './ui-helpers'

/**
 * Labels that travel and case files, on the web host against a sandbox standing in for the
 * service: a private tags CSV from another tool previewed and imported, a changed label replaced
 * only when ticked, a malformed file's bad row listed with its row and column; a case started from an
 * address page, a second address added, reopened from home with the service stopped, exported
 * and imported back.
 */
test('labels import with a preview; a case is kept, reopened offline, exported and imported', async ({
  app,
}, testInfo) => {
  test.setTimeout(240_000)
  const page = app
  const key = `e2e_${randomBytes(10).toString('hex')}`
  let service: ServiceSandbox | null = await startServiceSandbox(['--api-key', key])
  const axe: string[] = []
  const audit = async (screen: string): Promise<void> => {
    const { findings } = await auditBothThemes(page, screen)
    axe.push(
      describeFindings(findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact) || BLOCKING_RULES.includes(f.rule))),
    )
  }
  try {
    await connectService(page, service.info, key)
    const { whale, holder } = service.info.demo_addresses.alpha!
    const network = service.info.networks[0]!
    const main = page.getByRole('main')
    const search = page.getByRole('combobox', { name: 'Address' })

    await test.step('labels: an explorer private tags export is previewed, then imported', async () => {
      await page.getByRole('link', { name: 'Settings' }).click()
      const panel = main.getByRole('region', { name: 'Address labels' })
      await expect(panel).toContainText('0 labels kept')
      const csv = `\uFEFF"Address","Private Name Tag","Note"\r\n"${whale}","Busy whale","seen in the sandbox"\r\n"${holder}","Holder",""\r\n`
      await panel
        .getByLabel('Import labels file')
        .setInputFiles({ name: 'tags.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
      const added = panel.getByRole('table', { name: 'Labels that would be added' })
      await expect(added.getByRole('row')).toHaveCount(3)
      await expect(panel.getByRole('status')).toContainText('2 to add, 0 changed')
      await expect(panel).toContainText('0 labels kept')
      await panel.getByRole('button', { name: 'Apply import' }).click()
      await expect(panel).toContainText('2 labels kept')

      // The same address with another label: shown old → new, kept unless ticked.
      const next = `address,label\n${holder},Holder (cold)\n${whale},Busy whale\n`
      await panel
        .getByLabel('Import labels file')
        .setInputFiles({ name: 'next.csv', mimeType: 'text/csv', buffer: Buffer.from(next) })
      const changed = panel.getByRole('table', { name: 'Labels that would change' })
      await expect(changed).toContainText('Holder')
      await expect(changed).toContainText('→ Holder (cold)')
      await expect(panel.getByRole('button', { name: 'Apply import' })).toBeDisabled()
      await changed.getByRole('checkbox', { name: /^Replace the label of / }).check()
      await shootBothThemes(page, testInfo, 'l1-labels-preview')
      await audit('labels preview')
      await panel.getByRole('button', { name: 'Apply import' }).click()
      await expect(page.getByText('Labels imported: 0 added, 1 replaced, 0 kept as they were.')).toBeVisible()

      const bad = `address,label\n${whale},ok\n0x1234,broken\n`
      await panel
        .getByLabel('Import labels file')
        .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) })
      // The bad row is listed (row, column, why) above the labels; nothing applies until the user chooses.
      const badRows = panel.getByRole('alert').getByRole('table', { name: 'Rows that cannot be imported' })
      await expect(badRows.getByRole('row')).toHaveCount(2)
      await expect(badRows.getByRole('row').nth(1)).toHaveText(/^3\s*column 1 \("address"\)\s*An address has 40 hex/)
      await expect(panel).toContainText('2 labels kept')
      await panel.getByRole('button', { name: 'Cancel and fix the file' }).click()
      await expect(badRows).toHaveCount(0)

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        panel.getByRole('button', { name: 'Export labels as CSV' }).click(),
      ])
      const exported = readFileSync((await download.path())!, 'utf8').split('\r\n')
      expect(exported[0]).toBe('address,network,label,note')
      expect(exported).toContain(`${holder},${network},Holder (cold),`)
    })

    await test.step('a case is started from an address page and a second address is added', async () => {
      await search.fill(whale!)
      await search.press('Enter')
      await expect(main.getByRole('table', { name: 'Token balances' }).getByRole('row').nth(1)).toBeVisible({
        timeout: 20_000,
      })
      await main.getByRole('button', { name: 'Add to case' }).click()
      const dialog = page.getByRole('dialog', { name: 'Add to case' })
      await dialog.getByLabel('New case name').fill('Stolen funds')
      await dialog.getByRole('button', { name: 'Add' }).click()
      await expect(page.getByText('Added to the case Stolen funds (1 address)')).toBeVisible()

      await search.fill(holder!)
      await search.press('Enter')
      await expect(main.getByRole('table', { name: 'Token balances' }).getByRole('row').nth(1)).toBeVisible({
        timeout: 20_000,
      })
      await main.getByRole('button', { name: 'Add to case' }).click()
      await expect(dialog.getByLabel('Case')).toHaveValue(/.+/)
      await dialog.getByRole('button', { name: 'Add' }).click()
      await expect(page.getByText('Added to the case Stolen funds (2 addresses)')).toBeVisible()

      // The same whale on the other network is a third address of the case.
      await page.getByRole('radio', { name: 'Beta' }).check({ force: true })
      await search.fill(whale!)
      await search.press('Enter')
      await expect(page).toHaveURL(/#\/address\/beta\//)
      await main.getByRole('button', { name: 'Add to case' }).click()
      await dialog.getByRole('button', { name: 'Add' }).click()
      await expect(page.getByText('Added to the case Stolen funds (3 addresses)')).toBeVisible()
      await page.getByRole('radio', { name: 'Alpha' }).check({ force: true })
    })

    let exported = ''
    await test.step('the case is exported from its page', async () => {
      await page.getByRole('link', { name: 'Chainscope home' }).click()
      await main.getByRole('link', { name: 'Stolen funds' }).click()
      await expect(main.getByRole('heading', { level: 1, name: 'Case: Stolen funds' })).toBeVisible()
      await main.getByLabel(new RegExp(`^Note of ${whale} on Alpha in this case$`, 'i')).fill('source of funds')
      await main.getByLabel(new RegExp(`^Label of ${whale} on Alpha in this case$`, 'i')).click()
      await main.getByLabel('Case notes').fill('Funds left the whale in two hops.')
      await main.getByRole('button', { name: 'Save notes' }).click()
      await expect(page.getByText('Notes saved')).toBeVisible()
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        main.getByRole('button', { name: 'Export case' }).click(),
      ])
      exported = readFileSync((await download.path())!, 'utf8')
      expect(JSON.parse(exported)).toMatchObject({ format: 'chainscope-case', version: 1 })
    })

    await test.step('with the service stopped, the case reopens from home and its address from the cache', async () => {
      await service!.stop()
      service = null
      await page.getByRole('link', { name: 'Chainscope home' }).click()
      await main.getByRole('link', { name: 'Stolen funds' }).click()
      const table = main.getByRole('table', { name: 'Addresses in this case' })
      await expect(table.getByRole('row')).toHaveCount(4)
      await expect(table.getByRole('cell', { name: 'Beta', exact: true })).toHaveCount(1)
      // The imported address labels show beside the case's own.
      await expect(table).toContainText('Busy whale')
      await expect(table).toContainText('Holder (cold)')
      await expect(main.getByLabel('Case notes')).toHaveValue('Funds left the whale in two hops.')
      await expect(main.getByLabel(new RegExp(`^Note of ${whale} on Alpha in this case$`, 'i'))).toHaveValue(
        'source of funds',
      )
      await shootBothThemes(page, testInfo, 'c1-case-offline')
      await audit('case offline')
      await table.getByRole('button', { name: new RegExp(`^Open ${whale} on Alpha`, 'i') }).click()
      await expect(main.getByRole('table', { name: 'Token balances' }).getByRole('row').nth(1)).toBeVisible({
        timeout: 20_000,
      })
      await expect(main.getByRole('status', { name: 'Data freshness' })).toContainText(/as of/i)
    })

    await test.step('the exported case imports as a new case', async () => {
      await page.getByRole('link', { name: 'Chainscope home' }).click()
      await main
        .getByLabel('Import case file')
        .setInputFiles({ name: 'case.json', mimeType: 'application/json', buffer: Buffer.from(exported) })
      await expect(main.getByRole('heading', { level: 1, name: 'Case: Stolen funds (2)' })).toBeVisible()
      await expect(main.getByRole('table', { name: 'Addresses in this case' }).getByRole('row')).toHaveCount(4)
      // The copy goes again, after a question that names it.
      await main.getByRole('button', { name: 'Delete case' }).click()
      await page
        .getByRole('alertdialog', { name: 'Delete the case “Stolen funds (2)”?' })
        .getByRole('button', { name: 'Delete' })
        .click()
      await expect(page.getByRole('heading', { level: 1, name: 'Open an address' })).toBeVisible()
      await expect(main.getByRole('region', { name: 'Cases' }).getByRole('link')).toHaveCount(1)
      await main
        .getByLabel('Import case file')
        .setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"x"}') })
      await expect(main.getByRole('alert').filter({ hasText: 'this is not a Chainscope case file' })).toBeVisible()
      await shootBothThemes(page, testInfo, 'c2-home-cases')
      await audit('home with cases')
    })
    expect(axe.join('')).toBe('')
  } finally {
    await service?.stop()
  }
})

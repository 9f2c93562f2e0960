import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import type { Browser, BrowserContext, Download, Page, TestInfo } from '@playwright/test'
import { expect, test } from './fixtures'
import { auditBothThemes, BLOCKING_IMPACTS, BLOCKING_RULES, describeFindings } from './axe'
import { expandFirstHop1, openAddress, withConnectedSandbox } from './ui-helpers'

/** Saves a downloaded report and checks its bytes hold neither the key nor the service's address. */
async function saveReport(download: Download, testInfo: TestInfo, name: string, secrets: string[]): Promise<string> {
  expect(download.suggestedFilename()).toMatch(/^report-.+-[\d-]+\.html$/)
  const file = testInfo.outputPath(name)
  await download.saveAs(file)
  const html = readFileSync(file, 'utf8')
  for (const s of secrets) expect(html).not.toContain(s)
  return file
}

/**
 * Opens a report file in a fresh context where every request is refused and the browser is
 * offline: what renders comes from the file alone. `asked` lists anything it tried to load.
 */
async function openOffline(
  browser: Browser,
  file: string,
): Promise<{ context: BrowserContext; report: Page; asked: string[] }> {
  const context = await browser.newContext()
  const asked: string[] = []
  context.on('request', (r) => {
    if (!r.url().startsWith('file:')) asked.push(r.url())
  })
  await context.route('**', (route) =>
    route.request().url().startsWith('file:') ? route.continue() : route.abort('blockedbyclient'),
  )
  await context.setOffline(true)
  const report = await context.newPage()
  await report.goto(pathToFileURL(file).href)
  return { context, report, asked }
}

async function expectNoSeriousAxe(report: Page, screen: string): Promise<void> {
  const { findings } = await auditBothThemes(report, screen)
  const blocking = findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact) || BLOCKING_RULES.includes(f.rule))
  expect(blocking, describeFindings(blocking)).toEqual([])
}

/**
 * Clicks "Download report" on `page`, saves the file, checks its bytes, opens it offline, runs
 * `check` on it, then axe (0 serious), and closes the fresh context whatever happens.
 */
async function exportAndOpen(
  page: Page,
  testInfo: TestInfo,
  name: string,
  secrets: string[],
  check: (report: Page) => Promise<void>,
): Promise<void> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('main').getByRole('button', { name: 'Download report' }).click(),
  ])
  const file = await saveReport(download, testInfo, name, secrets)
  const { context, report, asked } = await openOffline(page.context().browser()!, file)
  try {
    await check(report)
    expect(asked).toEqual([])
    await expectNoSeriousAxe(report, name)
  } finally {
    await context.close()
  }
}

/**
 * The report of the busy sandbox wallet (whale), from its page and from a case holding it:
 * each opened as a file in a fresh browser context with every request refused. It must render
 * whole from the file alone, hold no API key, and pass axe. The case also keeps its flow graph.
 */
test('report: export from the busy address and a case, open each with the network blocked', async ({
  app,
}, testInfo) => {
  test.setTimeout(240_000)
  const page = app
  await withConnectedSandbox(page, async (service, key) => {
    const secrets = [key, service.info.base_url]
    const { whale } = service.info.demo_addresses.alpha!
    await openAddress(page, whale!)
    const main = page.getByRole('main')
    // The flow graph's edge table shows the page's transactions are in.
    await main.getByRole('tab', { name: 'Flow graph' }).click()
    const edges = main.getByRole('table', { name: /^Value moved, per sender, receiver and asset/ })
    await expect(edges.getByRole('row').nth(1)).toBeVisible({ timeout: 30_000 })

    await test.step('the address report renders from the file alone', async () => {
      await exportAndOpen(page, testInfo, 'address-report.html', secrets, async (report) => {
        await expect(report.getByRole('heading', { level: 1, name: `Address ${whale} on Alpha` })).toBeVisible()
        for (const name of ['Summary', 'Flow graph', 'Flows', 'Balance over time', 'Transactions'])
          await expect(report.getByRole('heading', { name, exact: true }).first()).toBeVisible()
        const summary = report.getByRole('table', { name: 'Addresses in this report' })
        await expect(summary.getByRole('row')).toHaveCount(2)
        const graph = report.getByRole('img', { name: /^Flow graph of 0x[0-9a-fA-F]{40}, 2 hops$/ })
        await expect(graph).toBeVisible()
        expect(await graph.locator('circle').count()).toBeGreaterThan(3)
        // The coin's line is its balance when the app fetched it, else a net change that says so.
        await expect(report.getByRole('img', { name: /^(Balance|Net change) of coin over time$/ })).toBeVisible()
        await expect(report.getByRole('region', { name: 'Provenance' })).toContainText('Chainscope')
        // Flows and transactions: each with data rows.
        expect(await report.locator('h3:text-is("Flows") ~ table').first().locator('tbody tr').count()).toBeGreaterThan(
          3,
        )
        expect(
          await report.locator('h3:text-is("Transactions") ~ table').first().locator('tbody tr').count(),
        ).toBeGreaterThan(5)
        await expect(report.getByText(/^Data as of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.$/).first()).toBeVisible()
        await report.screenshot({ path: testInfo.outputPath('r1-report-light.png'), fullPage: true })
      })
    })

    let expanded = ''
    await test.step('a case keeps its flow graph and exports its report with its notes', async () => {
      await main.getByRole('button', { name: 'Add to case' }).click()
      const dialog = page.getByRole('dialog', { name: 'Add to case' })
      await dialog.getByLabel('New case name').fill('Report case')
      await dialog.getByRole('button', { name: 'Add' }).click()
      await expect(page.getByText('Added to the case Report case (1 address)')).toBeVisible()
      await page.getByRole('link', { name: 'Chainscope home' }).click()
      await main.getByRole('link', { name: 'Report case' }).click()
      await expect(main.getByRole('heading', { level: 1, name: 'Case: Report case' })).toBeVisible()
      await main.getByLabel('Case notes').fill('Funds left the <b>whale</b> in two hops.')
      await main.getByRole('button', { name: 'Save notes' }).click()
      await expect(page.getByText('Notes saved')).toBeVisible()

      // One hop-1 address expanded (its cost confirmed): the case report then holds its page too.
      expanded = await expandFirstHop1(page)
      await main.getByRole('spinbutton', { name: 'Hops', exact: true }).fill('3')
      await main.getByRole('button', { name: 'Save graph to case' }).click()
      await expect(page.getByText('Graph saved to the case')).toBeVisible()
      // Changed after saving, then reopened: the case's saved hop limit comes back.
      await main.getByRole('spinbutton', { name: 'Hops', exact: true }).fill('1')
      await page.getByRole('link', { name: 'Chainscope home' }).click()
      await main.getByRole('link', { name: 'Report case' }).click()
      await main.getByRole('button', { name: 'Show flow graph' }).click()
      await expect(main.getByRole('spinbutton', { name: 'Hops', exact: true })).toHaveValue('3')

      await exportAndOpen(page, testInfo, 'case-report.html', secrets, async (report) => {
        await expect(report.getByRole('heading', { level: 1, name: 'Case: Report case' })).toBeVisible()
        await expect(report.getByRole('region', { name: 'Notes', exact: true })).toContainText(
          'Funds left the <b>whale</b> in two hops.',
        )
        await expect(report.getByRole('img', { name: /^Flow graph of .*, 3 hops$/ })).toBeVisible()
        // The expanded address's own transactions, with the time they were fetched.
        const section = report.getByRole('region', { name: 'Expanded addresses' })
        const heading = section.getByRole('heading', { level: 3 })
        await expect(heading).toHaveCount(1)
        expect((await heading.textContent())!.toLowerCase()).toBe(`${expanded} on alpha`)
        await expect(section.getByText(/^Data as of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.$/)).toBeVisible()
        expect(await section.locator('tbody tr').count()).toBeGreaterThan(0)
        await expect(report.getByText(/for this address; 1 expanded address as of /).first()).toBeVisible()
      })
    })
  })
})

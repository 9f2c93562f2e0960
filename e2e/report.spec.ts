import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { expect, test } from './fixtures'
import { auditBothThemes, BLOCKING_IMPACTS, BLOCKING_RULES, describeFindings } from './axe'
import { openAddress, withConnectedSandbox } from './ui-helpers'

/**
 * The report of the busy sandbox wallet (whale): exported from its page, then opened as a file in
 * a fresh browser context with every request refused. It must render whole from the file alone,
 * hold no API key, and pass axe.
 */
test('report: export from the busy address and open it with the network blocked', async ({ app }, testInfo) => {
  test.setTimeout(240_000)
  const page = app
  await withConnectedSandbox(page, async (service, key) => {
    const { whale } = service.info.demo_addresses.alpha!
    await openAddress(page, whale!)
    const main = page.getByRole('main')
    // The flow graph's edge table shows the page's transactions are in.
    await main.getByRole('tab', { name: 'Flow graph' }).click()
    const edges = main.getByRole('table', { name: /^Value moved, per sender, receiver and asset/ })
    await expect(edges.getByRole('row').nth(1)).toBeVisible({ timeout: 30_000 })

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      main.getByRole('button', { name: 'Export report' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^report-alpha-0x[0-9a-fA-F]{40}-[\d-]+\.html$/)
    const file = testInfo.outputPath('report.html')
    await download.saveAs(file)
    const html = readFileSync(file, 'utf8')
    expect(html).not.toContain(key)
    expect(html).not.toContain(service.info.base_url)

    const context = await page.context().browser()!.newContext()
    const asked: string[] = []
    context.on('request', (r) => {
      if (!r.url().startsWith('file:')) asked.push(r.url())
    })
    await context.route('**', (route) =>
      route.request().url().startsWith('file:') ? route.continue() : route.abort('blockedbyclient'),
    )
    await context.setOffline(true)
    const report = await context.newPage()
    try {
      await report.goto(pathToFileURL(file).href)
      await expect(report.getByRole('heading', { level: 1, name: `Address ${whale} on Alpha` })).toBeVisible()
      for (const name of ['Summary', 'Flow graph', 'Flows', 'Balance over time', 'Transactions'])
        await expect(report.getByRole('heading', { name, exact: true }).first()).toBeVisible()
      const summary = report.getByRole('table', { name: 'Addresses in this report' })
      await expect(summary.getByRole('row')).toHaveCount(2)
      const graph = report.getByRole('img', { name: /^Flow graph of 0x[0-9a-fA-F]{40}, 2 hops$/ })
      await expect(graph).toBeVisible()
      expect(await graph.locator('circle').count()).toBeGreaterThan(3)
      await expect(report.getByRole('img', { name: /^Net change of coin over time$/ })).toBeVisible()
      const tables = report.getByRole('table')
      // Summary, flows, transactions: each with data rows.
      expect(await tables.count()).toBe(3)
      const txRows = await tables.nth(2).locator('tbody tr').count()
      expect(txRows).toBeGreaterThan(5)
      expect(await tables.nth(1).locator('tbody tr').count()).toBeGreaterThan(3)
      await expect(report.getByText(/^Data as of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.$/).first()).toBeVisible()
      expect(asked).toEqual([])
      await report.screenshot({ path: testInfo.outputPath('r1-report-light.png'), fullPage: true })

      const { findings } = await auditBothThemes(report, 'report file')
      const blocking = findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact) || BLOCKING_RULES.includes(f.rule))
      expect(blocking, describeFindings(blocking)).toEqual([])
    } finally {
      await context.close()
    }
  })
})

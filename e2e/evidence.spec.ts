import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { auditBothThemes, BLOCKING_IMPACTS, BLOCKING_RULES, describeFindings } from './axe'
import { expect, test } from './fixtures'
import { expandFirstHop1, shootBothThemes } from './ui-helpers'

/**
 * Issue 41 on the web host and the built-in sandbox: a case that keeps the investigation
 * (expansion, filters, a path question and its answer, a note and a label, its activity log),
 * reopened with the sandbox stopped; an evidence bundle exported, its report opened with every
 * request refused and printed to PDF; Verify finds a changed byte and names the file.
 */
test('evidence: a case keeps the investigation, exports a bundle that verifies, and a changed byte is named', async ({
  app,
}, testInfo) => {
  test.setTimeout(300_000)
  const page = app
  const main = page.getByRole('main')
  const blocking: string[] = []
  const audit = async (p: typeof page, screen: string): Promise<void> => {
    const { findings } = await auditBothThemes(p, screen)
    blocking.push(
      describeFindings(findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact) || BLOCKING_RULES.includes(f.rule))),
    )
  }

  await page.getByRole('button', { name: 'Start the sandbox' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Open an address' })).toBeVisible({ timeout: 90_000 })
  const sample = main.getByRole('button', { name: /^Open the sample wallet: / }).first()
  await expect(sample).toBeVisible({ timeout: 30_000 })
  await sample.click()
  await expect(main.getByRole('table', { name: 'Token balances' }).getByRole('row').nth(1)).toBeVisible({
    timeout: 30_000,
  })
  const root = /#\/address\/alpha\/(0x[0-9a-fA-F]{40})/.exec(page.url())![1]!

  let target = ''
  await test.step('build a case: expand, filter, find a path, a note and a label', async () => {
    await main.getByRole('button', { name: 'Add to case' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add to case' })
    await dialog.getByLabel('New case name').fill('Exhibit case')
    await dialog.getByRole('button', { name: 'Add' }).click()
    await expect(page.getByText('Added to the case Exhibit case (1 address)')).toBeVisible()
    await page.getByRole('link', { name: 'Chainscope home' }).click()
    await main.getByRole('link', { name: 'Exhibit case' }).click()
    await expect(main.getByRole('heading', { level: 1, name: 'Case: Exhibit case' })).toBeVisible()

    target = await expandFirstHop1(page)
    await main.getByRole('spinbutton', { name: 'Hops', exact: true }).fill('3')
    await main.getByRole('combobox', { name: 'Direction' }).selectOption('both')
    await main.getByLabel('From date').fill('2020-01-01')
    // The path: from the case's address to the expanded one, asked and answered in the case.
    await main.getByRole('region', { name: 'Selected address' }).getByRole('button', { name: 'Path to here' }).click()
    await main.getByRole('button', { name: 'Find path' }).click()
    await expect(main.getByRole('status').filter({ hasText: /Path found: \d+ hops?\./ })).toBeVisible()
    await expect(main.getByRole('region', { name: /^Path questions \(1\)$/ })).toBeVisible()
    await main.getByRole('checkbox', { name: 'Amounts and dates on edges' }).check()
    // The graph alone, for a slide or a filing: SVG with the edges' amounts and dates, and PNG.
    const [svg] = await Promise.all([
      page.waitForEvent('download'),
      main.getByRole('button', { name: 'Export graph as SVG' }).click(),
    ])
    const svgText = readFileSync((await svg.path())!, 'utf8')
    expect(svgText).toMatch(/^<\?xml[^>]*>\n<svg /)
    expect(svgText).toMatch(/<text class="detail"[^>]*>[\d,.]+ \S+ · \d{4}-\d\d-\d\d/)
    expect(svgText).not.toMatch(/<(script|image|a|foreignObject)\b/)
    const [png] = await Promise.all([
      page.waitForEvent('download'),
      main.getByRole('button', { name: 'Export graph as PNG' }).click(),
    ])
    expect(
      readFileSync((await png.path())!)
        .subarray(0, 8)
        .toString('hex'),
    ).toBe('89504e470d0a1a0a')
    expect(png.suggestedFilename()).toMatch(/^flow-graph-.+\.png$/)
    await main.getByRole('button', { name: 'Save graph to case' }).click()
    await expect(page.getByText('Graph saved to the case')).toBeVisible()

    await main.getByLabel(new RegExp(`^Label of ${root} on Alpha in this case$`, 'i')).fill('Suspect wallet')
    await main.getByLabel(new RegExp(`^Note of ${root} on Alpha in this case$`, 'i')).fill('first seen in the sandbox')
    await main.getByLabel('Case notes').click()
    await main.getByLabel('Case notes').fill('The money went out in hops.')
    await main.getByRole('button', { name: 'Save notes' }).click()
    await expect(page.getByText('Notes saved')).toBeVisible()
    const log = main.getByRole('table', { name: 'Activity log of this case' })
    await expect(log).toContainText('Fetched the first page of transactions')
    await expect(log).toContainText('Asked for a path')
    await expect(log).toContainText('label set to “Suspect wallet”')
    await shootBothThemes(page, testInfo, 'e1-case-built')
    await audit(page, 'case built')
  })

  await test.step('with the sandbox stopped, the case reopens with every part', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
    const panel = page.getByRole('region', { name: 'Built-in sandbox' })
    await panel.getByRole('button', { name: 'Stop sandbox' }).click()
    await expect(panel.getByRole('status')).toHaveText(/^The sandbox is stopped/, { timeout: 30_000 })
    await page.getByRole('link', { name: 'Chainscope home' }).click()
    await main.getByRole('link', { name: 'Exhibit case' }).click()
    await expect(main.getByLabel(new RegExp(`^Label of ${root} on Alpha in this case$`, 'i'))).toHaveValue(
      'Suspect wallet',
    )
    await expect(main.getByLabel(new RegExp(`^Note of ${root} on Alpha in this case$`, 'i'))).toHaveValue(
      'first seen in the sandbox',
    )
    await expect(main.getByLabel('Case notes')).toHaveValue('The money went out in hops.')
    const paths = main.getByRole('region', { name: /^Path questions \(1\)$/ })
    await expect(paths).toContainText(/UTC: \d+ hops?/)
    await expect(paths).toContainText(target.toLowerCase().slice(2, 10), { ignoreCase: true })
    await expect(main.getByRole('region', { name: /^Activity log/ })).toContainText('The chain checks out.')
    await expect(page.getByRole('alert').filter({ hasText: 'read-only' })).toHaveCount(0)
    await main.getByRole('button', { name: 'Show flow graph' }).click()
    await expect(main.getByRole('spinbutton', { name: 'Hops', exact: true })).toHaveValue('3')
    await expect(main.getByLabel('From date')).toHaveValue('2020-01-01')
    await expect(main.getByRole('region', { name: 'Selected address' }).locator('p.mono')).toHaveText(target)
    await shootBothThemes(page, testInfo, 'e2-case-offline')
    await audit(page, 'case offline')
  })

  let folder = ''
  await test.step('the evidence bundle opens offline, states its provenance and prints with page numbers', async () => {
    await main.getByLabel('Made by (optional, stated in reports)').fill('E2E Analyst')
    await main.getByRole('button', { name: 'Export evidence bundle' }).click()
    const done = main.getByRole('status').filter({ hasText: 'Bundle written to' })
    await expect(done).toBeVisible({ timeout: 60_000 })
    folder = (await done.locator('code').first().textContent())!.trim()
    const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as {
      files: { path: string }[]
    }
    expect(manifest.files.map((f) => f.path)).toContain('data/case.json')
    expect(manifest.files.some((f) => f.path.startsWith('data/transactions-alpha-'))).toBe(true)

    const context = await page.context().browser()!.newContext()
    const asked: string[] = []
    context.on('request', (r) => {
      if (!r.url().startsWith('file:')) asked.push(r.url())
    })
    await context.route('**', (route) =>
      route.request().url().startsWith('file:') ? route.continue() : route.abort('blockedbyclient'),
    )
    const report = await context.newPage()
    try {
      await report.goto(pathToFileURL(join(folder, 'report.html')).href)
      await expect(report.getByRole('heading', { level: 1, name: 'Case: Exhibit case' })).toBeVisible()
      const prov = report.getByRole('region', { name: 'Provenance' })
      await expect(prov.getByRole('row', { name: /^Made by E2E Analyst$/ })).toBeVisible()
      await expect(prov.getByRole('row', { name: /^Made with Chainscope \S+$/ })).toBeVisible()
      await expect(
        prov.getByRole('row', {
          name: /^Data source profile “Sandbox”, service at the built-in sandbox on this computer \(127\.0\.0\.1\)$/,
        }),
      ).toBeVisible()
      await expect(prov.getByRole('row', { name: /^Networks Alpha \(alpha, / })).toBeVisible()
      await expect(prov.getByRole('row', { name: /^Manifest hash \(SHA-256\) [0-9a-f]{64}$/ })).toBeVisible()
      for (const name of ['Labels and notes', 'Paths found', 'Activity log', 'Current balances'])
        await expect(report.getByRole('heading', { name, exact: true }).first()).toBeVisible()
      await expect(report.getByRole('region', { name: 'Labels and notes' })).toContainText('Suspect wallet')
      await expect(report.getByText(/^Coin balance: [\d,.]+ coin as of /).first()).toBeVisible()
      await report.screenshot({ path: testInfo.outputPath('e3-report-light.png'), fullPage: false })
      await audit(report, 'evidence report')
      // Print: the page margins carry "Page N of M" and the footer; the PDF has pages.
      const css = await report.locator('style').textContent()
      expect(css).toMatch(/@bottom-right \{ content: "Page " counter\(page\) " of " counter\(pages\)/)
      const pdf = await report.pdf({ format: 'A4' })
      writeFileSync(testInfo.outputPath('e4-report.pdf'), pdf)
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
      expect((pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length).toBeGreaterThan(1)
      expect(asked).toEqual([])
    } finally {
      await context.close()
    }
  })

  await test.step('Verify: the bundle checks out; one changed byte is found and its file named', async () => {
    await page.getByRole('link', { name: 'Chainscope home' }).click()
    const verify = main.getByRole('form', { name: 'Verify an evidence bundle' })
    await verify.getByLabel('Bundle folder').fill(folder)
    await verify.getByRole('button', { name: 'Verify' }).click()
    await expect(verify.getByRole('status')).toHaveText(/Verified: all \d+ files of the bundle match its manifest\./)
    const data = join(folder, 'data', 'case.json')
    const bytes = readFileSync(data)
    bytes[10] = bytes[10]! ^ 0x01
    writeFileSync(data, bytes)
    await verify.getByRole('button', { name: 'Verify' }).click()
    const list = verify.getByRole('list', { name: 'Files that do not match' })
    await expect(list.getByRole('listitem')).toHaveCount(1)
    await expect(list).toContainText('data/case.json — data/case.json no longer matches its SHA-256')
    await shootBothThemes(page, testInfo, 'e5-verify-changed')
    await audit(page, 'verify')
  })
  expect(blocking.join('')).toBe('')
})

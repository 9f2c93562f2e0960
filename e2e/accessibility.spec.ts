import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { expect, test } from './fixtures'
import {
  auditBothThemes,
  BLOCKING_IMPACTS,
  BLOCKING_RULES,
  countByRule,
  describeFindings,
  type AxeFinding,
} from './axe'
import { connectService, openAddress, startServiceSandbox } from './ui-helpers'

/**
 * axe-core on every main screen, light and dark: any serious or critical violation
 * fails the test, listed with its rule and the selectors of the nodes. Lesser findings are
 * written to the test's output (axe-findings.json) and the log so they stay visible.
 */
test('axe-core finds no serious or critical violation on any main screen, in either theme', async ({
  app,
}, testInfo) => {
  test.setTimeout(240_000)
  const page = app
  const key = `e2e_${randomBytes(10).toString('hex')}`
  const findings: AxeFinding[] = []
  const review: AxeFinding[] = []
  const audit = async (screen: string): Promise<void> => {
    const result = await auditBothThemes(page, screen)
    findings.push(...result.findings)
    review.push(...result.review)
  }
  const service = await startServiceSandbox(['--api-key', key])
  try {
    const whale = service.info.demo_addresses.alpha!.whale!
    const main = page.getByRole('main')
    const nav = page.getByRole('navigation', { name: 'Main' })

    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Chainscope' })).toBeVisible()
    await audit('welcome')

    await connectService(page, service.info, key)
    await audit('home')

    await page.getByRole('combobox', { name: 'Address' }).fill(whale)
    await page.getByRole('combobox', { name: 'Address' }).press('Enter')
    await expect(main.getByRole('table', { name: 'Token balances' }).getByRole('row').nth(1)).toBeVisible({
      timeout: 20_000,
    })
    await expect(main.getByRole('img', { name: /^Allocation by fiat value: / })).toBeVisible()
    await audit('address balances')

    await main.getByRole('tab', { name: 'Transactions' }).click()
    const txTable = main.getByRole('table', { name: 'Transactions' })
    await expect(txTable.getByRole('row').nth(1)).toBeVisible({ timeout: 20_000 })
    await audit('address transactions')

    await txTable.getByRole('row').nth(1).getByRole('button').first().click()
    const dialog = page.getByRole('dialog', { name: 'Transaction details' })
    await expect(dialog.getByRole('heading', { name: 'Overview' })).toBeVisible()
    await audit('transaction detail')
    await dialog.getByRole('button', { name: 'Close details' }).click()

    await page.getByRole('button', { name: 'Add to watchlist' }).click()
    const add = page.getByRole('dialog', { name: 'Add to watchlist' })
    // No label: the entry's button then reads "Unlabelled", which its name must contain.
    await add.getByLabel('New watchlist name').fill('Whales')
    await add.getByRole('button', { name: 'Add' }).click()
    await expect(add).toBeHidden()

    await nav.getByRole('link', { name: 'RPC console' }).click()
    await page.getByRole('button', { name: 'Send' }).click()
    await expect(page.getByRole('table', { name: 'RPC history' }).getByRole('row')).toHaveCount(2)
    await audit('RPC console')

    await nav.getByRole('link', { name: 'Watchlists' }).click()
    await expect(page.getByRole('table', { name: 'Entries of Whales' })).toContainText('Unlabelled')
    await audit('watchlists')

    await nav.getByRole('link', { name: 'Settings' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible()
    await audit('settings')
    // A toast on screen, in both themes.
    await page.getByRole('button', { name: 'Save limits' }).click()
    await expect(
      page
        .getByRole('region', { name: /^Notifications/ })
        .getByRole('listitem')
        .filter({ hasText: 'Limits saved' }),
    ).toBeVisible()
    await audit('settings with a toast')

    await page.evaluate("location.hash = '#/no/such/screen'")
    await expect(page.getByRole('heading', { level: 1, name: 'Nothing here' })).toBeVisible()
    await audit('not found')
  } finally {
    await service.stop()
  }

  const counts = countByRule(findings)
  const reviewCounts = countByRule(review)
  writeFileSync(
    testInfo.outputPath('axe-findings.json'),
    JSON.stringify({ counts, reviewCounts, findings, review }, null, 2),
  )
  console.log(`axe-core violations, nodes by rule (all screens, both themes): ${JSON.stringify(counts)}`)
  console.log(`axe-core "needs review", nodes by rule: ${JSON.stringify(reviewCounts)}`)
  const blocking = findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact) || BLOCKING_RULES.includes(f.rule))
  expect(describeFindings(blocking), 'serious or critical axe-core violations (and heading order)').toBe('')
})

/**
 * The transaction list keeps each rendered row in its element while it scrolls (RowPool), so its
 * elements are not in reading order then. The focus must still move in reading order: Tab from a
 * row's hash button goes through that row's party links to the next row's hash button, across the
 * point where the elements wrap around.
 */
test('Tab moves through the transaction rows in reading order after the list has scrolled', async ({ app }) => {
  test.setTimeout(120_000)
  const page = app
  const key = `e2e_${randomBytes(10).toString('hex')}`
  const service = await startServiceSandbox(['--api-key', key])
  try {
    await connectService(page, service.info, key)
    await openAddress(page, service.info.demo_addresses.alpha!.whale!)
    const main = page.getByRole('main')
    await main.getByRole('tab', { name: 'Transactions' }).click()
    const txTable = main.getByRole('table', { name: 'Transactions' })
    await expect(txTable.getByRole('row').nth(1)).toBeVisible({ timeout: 20_000 })
    expect(Number(await txTable.getAttribute('aria-rowcount')), 'transactions enough to scroll').toBeGreaterThan(40)

    const focusedRow = async (): Promise<number> =>
      Number(await page.evaluate(`document.activeElement?.closest('[role="row"]')?.getAttribute('aria-rowindex')`))
    // The hash button of the fifth transaction (row 6: the header is row 1).
    await txTable.locator('[aria-rowindex="6"]').getByRole('button').first().focus()
    expect(await focusedRow()).toBe(6)
    // Scroll eight rows down: the rows gone from the top lend their elements to rows coming in.
    await txTable.locator('.scroller').evaluate((el) => (el.scrollTop += 8 * 44))
    await expect
      .poll(() =>
        txTable.evaluate((t) =>
          [...t.querySelectorAll('.scroller [role="row"]')].map((r) => Number(r.getAttribute('aria-rowindex'))),
        ),
      )
      .toEqual(expect.not.arrayContaining([3]))
    const order = await txTable.evaluate((t) =>
      [...t.querySelectorAll('.scroller [role="row"]')].map((r) => Number(r.getAttribute('aria-rowindex'))),
    )
    expect(order, 'the elements are out of reading order (else this test proves nothing)').not.toEqual(
      [...order].sort((a, b) => a - b),
    )
    const seen: number[] = []
    for (let i = 0; i < 72; i++) {
      await page.keyboard.press('Tab')
      seen.push(await focusedRow())
    }
    // A row's stops are its hash button, then its parties' links (pivots): never backwards, no
    // row skipped, and past the point where the elements wrap around.
    expect(seen, 'never back to an earlier row').toEqual([...seen].sort((a, b) => a - b))
    const rows = [...new Set(seen)]
    expect(rows, 'no row skipped').toEqual(Array.from({ length: rows.length }, (_, i) => 6 + i))
    expect(rows.at(-1)!, 'past the rows whose elements were lent').toBeGreaterThan(24)
    for (const row of rows.slice(1, -1))
      expect(seen.filter((r) => r === row).length, `row ${row}: its hash and its parties' links`).toBeGreaterThan(1)
  } finally {
    await service.stop()
  }
})

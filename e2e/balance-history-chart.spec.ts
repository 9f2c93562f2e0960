import { randomBytes } from 'node:crypto'
import { expect, test } from './fixtures'
import { auditBothThemes, BLOCKING_IMPACTS, BLOCKING_RULES, describeFindings } from './axe'
import { connectService, shootBothThemes, startServiceSandbox, type ServiceSandbox } from './ui-helpers'

const TIME = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/
/** "2025-01-01 08:00:00" (local, as the app writes it) as epoch ms. */
const msOf = (text: string): number => new Date(text.replace(' ', 'T')).getTime()
const dayOf = (text: string): string => text.slice(0, 10)

/**
 * The busy wallet's balance history once every page is loaded: its changes took two days and
 * today is far later, yet the chart draws those days with hundreds of points, not a sliver.
 * Read from the chart's accessible name, its range caption and its data table, not pixels.
 */
test('balance history of the busy wallet draws its first loaded day, zooms by keyboard, and tells it in words', async ({
  app: page,
}, testInfo) => {
  test.setTimeout(240_000)
  const key = `e2e_${randomBytes(10).toString('hex')}`
  const service: ServiceSandbox = await startServiceSandbox(['--api-key', key])
  try {
    await connectService(page, service.info, key)
    const main = page.getByRole('main')
    const search = page.getByRole('combobox', { name: 'Address' })
    await search.fill(service.info.demo_addresses.alpha!.whale!)
    await search.press('Enter')
    await expect(main.getByRole('table', { name: 'Token balances' }).getByRole('row').nth(1)).toBeVisible({
      timeout: 20_000,
    })
    // The coin's balance today comes from the both-networks check; the history walks back from it.
    await expect(main.getByRole('region', { name: 'Both networks' }).getByRole('listitem')).toHaveCount(2, {
      timeout: 20_000,
    })

    await main.getByRole('tab', { name: 'Balance history' }).click()
    await main.getByRole('button', { name: 'Load the first page of transactions' }).click()
    await main.getByRole('button', { name: 'Load the rest' }).click()
    const complete = main.getByText(/Every page is loaded: complete from the first transaction/)
    await expect(complete).toBeVisible({ timeout: 150_000 })
    const firstLoaded = TIME.exec((await complete.textContent()) ?? '')![0]

    const chart = main.getByRole('img', { name: /balance from/ })
    await expect(chart).toBeVisible()
    const summary = (await chart.getAttribute('aria-label')) ?? ''
    const drawn = /balance from (\S+ \S+) to (\S+ \S+) \(drawn range\): (\d+) points/.exec(summary)
    expect(drawn, summary).not.toBeNull()
    const [, from, to, count] = drawn!
    // The drawn range covers the first loaded day: it starts at (a millisecond before) the first
    // transaction and reaches past that day's end or the last change.
    expect(msOf(from!)).toBeLessThanOrEqual(msOf(firstLoaded))
    expect(dayOf(from!)).toBe(dayOf(firstLoaded))
    expect(msOf(to!)).toBeGreaterThan(msOf(firstLoaded) + 86_400_000)
    expect(Number(count)).toBeGreaterThanOrEqual(100)
    // Today is far beyond the changes: said in words, not squeezed into the drawing.
    expect(summary).toMatch(/Today \(.+\) is beyond the right edge: .+ coin, unchanged since /)

    // The data table tells the same: its caption is the drawn range; its rows, the points.
    const caption = main.getByText(/^Drawn range /).first()
    await expect(caption).toContainText(`Drawn range ${from} to ${to}: ${count} points`)
    await main.getByText(/^Table of the \d+ drawn points$/).click()
    const table = main.getByRole('table', { name: 'Drawn points of the coin balance' })
    await expect(table.getByRole('row')).toHaveCount(Number(count) + 1)
    const firstRow = await table.getByRole('row').nth(1).getByRole('cell').first().textContent()
    expect(dayOf(firstRow ?? '')).toBe(dayOf(firstLoaded))
    // The controls, the focusable chart and the open table pass axe in both themes.
    const { findings } = await auditBothThemes(page, 'balance history')
    const blocking = findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact) || BLOCKING_RULES.includes(f.rule))
    console.log(
      `axe-core on the balance history: ${findings.map((f) => `${f.theme} ${f.rule} (${f.impact})`).join('; ') || 'none'}`,
    )
    expect(describeFindings(blocking)).toBe('')
    await main.getByText(/^Table of the \d+ drawn points$/).click()
    await shootBothThemes(page, testInfo, 'h1-whale-history-all-loaded')

    // Keyboard: step through points (exact amount read out), zoom in, back to the changes.
    // Tab from the last range button to the chart, as a keyboard user arrives there.
    await main.getByRole('button', { name: 'Up to today' }).focus()
    await page.keyboard.press('Tab')
    await expect(main.getByRole('group', { name: 'coin balance chart' })).toBeFocused()
    const readout = main.getByRole('status').filter({ hasText: /\(point \d+ of \d+\)/ })
    await expect(readout).toContainText(`${from}: `)
    await page.keyboard.press('End')
    await expect(readout).toContainText(new RegExp(`\\(point ${count} of ${count}\\)`))
    await expect(readout).toContainText(/: [\d,]+(\.\d+)? coin/)
    await page.keyboard.press('Home')
    await page.keyboard.press('+')
    await expect(chart).not.toHaveAttribute('aria-label', summary)
    const zoomed = /balance from (\S+ \S+) to (\S+ \S+)/.exec((await chart.getAttribute('aria-label')) ?? '')!
    expect(msOf(zoomed[2]!) - msOf(zoomed[1]!)).toBeLessThan(msOf(to!) - msOf(from!))
    await shootBothThemes(page, testInfo, 'h2-whale-history-zoomed', { fullPage: false })
    await page.keyboard.press('0')
    await expect(chart).toHaveAttribute('aria-label', summary)

    // The pointer: Ctrl and the wheel zoom around it, a sideways scroll pans, a button fits again.
    await chart.hover()
    await page.keyboard.down('Control')
    await page.mouse.wheel(0, -200)
    await page.keyboard.up('Control')
    await expect(chart).not.toHaveAttribute('aria-label', summary)
    const wheeled = /balance from (\S+ \S+) to (\S+ \S+)/.exec((await chart.getAttribute('aria-label')) ?? '')!
    expect(msOf(wheeled[2]!) - msOf(wheeled[1]!)).toBeLessThan(msOf(to!) - msOf(from!))
    await page.mouse.wheel(200, 0)
    await expect(chart).not.toHaveAttribute('aria-label', new RegExp(`balance from ${wheeled[1]} `))
    await main.getByRole('button', { name: 'Fit the changes' }).click()
    await expect(chart).toHaveAttribute('aria-label', summary)

    // Out to today with a button: the whole span, today marked inside the drawn range.
    await main.getByRole('button', { name: 'Up to today' }).click()
    await expect(chart).toHaveAttribute('aria-label', /balance from .* \(drawn range\)/)
    await expect(chart).not.toHaveAttribute('aria-label', /beyond the right edge/)
    await shootBothThemes(page, testInfo, 'h3-whale-history-to-today', { fullPage: false })
  } finally {
    await service.stop()
  }
})

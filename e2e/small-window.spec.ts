import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { addToNewWatchlist, openAddress, shootBothThemes, withConnectedSandbox } from './ui-helpers'

/**
 * A small window, 1024×700 (issue 39 item 7, docs/decisions/small-windows.md): on every tab of
 * the busy address the first row of data is inside the window without scrolling, and the page
 * never scrolls sideways (a wide table scrolls inside itself). The flow graph's data is the
 * graph: its top and a usable part of it are in view.
 */
const W = 1024
const H = 700
/** How much of the flow graph must be in view (its height is 55 % of the window). */
const GRAPH_IN_VIEW = 180

async function noSidewaysScroll(page: Page, where: string): Promise<void> {
  const { sw, cw } = await page.evaluate<{ sw: number; cw: number }>(
    '({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth })',
  )
  expect(sw, `${where}: the page scrolls sideways (${sw} > ${cw})`).toBeLessThanOrEqual(cw)
}

async function inView(row: Locator, where: string): Promise<void> {
  await expect(row).toBeVisible({ timeout: 30_000 })
  const box = (await row.boundingBox())!
  expect(box.y, `${where}: the first row starts above the window`).toBeGreaterThanOrEqual(0)
  expect(
    box.y + box.height,
    `${where}: the first row ends below the window (${box.y + box.height} > ${H})`,
  ).toBeLessThanOrEqual(H)
  expect(box.x + box.width, `${where}: the first row ends right of the window`).toBeLessThanOrEqual(W)
}

test('at 1024×700 every address tab shows its first row of data without scrolling, and nothing scrolls sideways', async ({
  app,
}, testInfo) => {
  test.setTimeout(300_000)
  const page = app
  await page.setViewportSize({ width: W, height: H })
  await withConnectedSandbox(page, async (service) => {
    const { whale } = service.info.demo_addresses.alpha!
    await openAddress(page, whale!)
    const main = page.getByRole('main')
    const tab = async (name: string): Promise<void> => {
      await main.getByRole('tab', { name }).click()
      await page.evaluate('window.scrollTo(0, 0)')
    }
    const firstBodyRow = (table: Locator): Locator => table.locator('tbody tr').first()

    await test.step('Balances', async () => {
      await tab('Balances')
      await inView(firstBodyRow(main.getByRole('table', { name: 'Token balances' })), 'Balances')
      await noSidewaysScroll(page, 'Balances')
      await shootBothThemes(page, testInfo, 'sw1-balances', { fullPage: false })
    })

    await test.step('Transactions', async () => {
      await tab('Transactions')
      const list = main.getByRole('table', { name: 'Transactions' })
      await inView(list.getByRole('row').nth(1), 'Transactions')
      await noSidewaysScroll(page, 'Transactions')
      await shootBothThemes(page, testInfo, 'sw2-transactions', { fullPage: false })
    })

    await test.step('Counterparties', async () => {
      await tab('Counterparties')
      await inView(firstBodyRow(main.getByRole('table', { name: 'Counterparties' })), 'Counterparties')
      await noSidewaysScroll(page, 'Counterparties')
    })

    await test.step('Token transfers', async () => {
      await tab('Token transfers')
      await inView(firstBodyRow(main.getByRole('table', { name: 'Token transfers' })), 'Token transfers')
      await noSidewaysScroll(page, 'Token transfers')
    })

    await test.step('Balance history', async () => {
      await tab('Balance history')
      await inView(main.getByRole('group', { name: /balance chart$/ }).getByRole('img'), 'Balance history')
      await noSidewaysScroll(page, 'Balance history')
    })

    await test.step('Balance at a date', async () => {
      await tab('Balance at a date')
      await main.getByLabel('Date (UTC)').fill('2025-01-04')
      const table = main.getByRole('table', { name: 'Balances at the end of 2025-01-04 (UTC)' })
      await inView(firstBodyRow(table), 'Balance at a date')
      await noSidewaysScroll(page, 'Balance at a date')
    })

    await test.step('Flow graph', async () => {
      await tab('Flow graph')
      const graph = main.locator('.flow-canvas[role="img"]')
      await expect(graph).toBeVisible({ timeout: 30_000 })
      const box = (await graph.boundingBox())!
      expect(box.y).toBeGreaterThanOrEqual(0)
      expect(H - box.y, `the flow graph shows ${H - box.y} px`).toBeGreaterThanOrEqual(GRAPH_IN_VIEW)
      await noSidewaysScroll(page, 'Flow graph')
      await shootBothThemes(page, testInfo, 'sw3-flows', { fullPage: false })
    })

    await test.step('Approvals', async () => {
      await tab('Approvals')
      await inView(firstBodyRow(main.getByRole('table', { name: 'Approvals in force' })), 'Approvals')
      await noSidewaysScroll(page, 'Approvals')
    })

    await test.step('Watchlists', async () => {
      await addToNewWatchlist(page, { list: 'Small window', label: 'Busy whale' })
      await page.getByRole('link', { name: 'Watchlists' }).click()
      await inView(firstBodyRow(main.getByRole('table', { name: 'Entries of Small window' })), 'Watchlists')
      await noSidewaysScroll(page, 'Watchlists')
      await shootBothThemes(page, testInfo, 'sw4-watchlists', { fullPage: false })
    })
  })
})

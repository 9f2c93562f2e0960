import { randomBytes } from 'node:crypto'
import type { Locator } from '@playwright/test'
import { expect, test } from './fixtures'
import { connectService, shootBothThemes, startServiceSandbox } from './ui-helpers'

/** Things a new user met on a first walk (issue 15), each checked the way the user saw it. */

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await locator.boundingBox()
  if (!b) throw new Error(`no box for ${locator.toString()}`)
  return b
}

test('a failed transaction shows its whole status badge inside the Status cell', async ({ app }, testInfo) => {
  test.setTimeout(120_000)
  const page = app
  const key = `e2e_${randomBytes(10).toString('hex')}`
  const service = await startServiceSandbox(['--api-key', key])
  try {
    await connectService(page, service.info, key)
    const main = page.getByRole('main')
    await page.getByRole('combobox', { name: 'Address' }).fill(service.info.demo_addresses.alpha!.whale!)
    await page.getByRole('combobox', { name: 'Address' }).press('Enter')
    await main.getByRole('tab', { name: 'Transactions' }).click()
    const table = main.getByRole('table', { name: 'Transactions' })
    await expect(table.getByRole('row').nth(1)).toBeVisible({ timeout: 20_000 })
    await main.getByLabel('Status').selectOption('failed')
    // The sandbox's reason ("execution reverted") is longer than the "Reverted" seen elsewhere.
    const cells = table.getByRole('cell', { name: /^Failed: / })
    await expect(cells.first()).toBeVisible({ timeout: 20_000 })
    const n = Math.min(await cells.count(), 5)
    expect(n).toBeGreaterThan(0)
    for (let i = 0; i < n; i++) {
      const cell = cells.nth(i)
      const badge = cell.getByText(/^Failed: /)
      const c = await box(cell)
      const b = await box(badge)
      const where = `${await badge.textContent()}: badge ${JSON.stringify(b)} in cell ${JSON.stringify(c)}`
      expect(b.x >= c.x - 0.5 && b.x + b.width <= c.x + c.width + 0.5, `horizontally inside, ${where}`).toBe(true)
      expect(b.y >= c.y - 0.5 && b.y + b.height <= c.y + c.height + 0.5, `vertically inside, ${where}`).toBe(true)
      // Nor cut inside the badge itself (an ellipsis would hide the reason).
      expect(await badge.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1), where).toBe(true)
    }
    await shootBothThemes(page, testInfo, 'failed-status', { fullPage: false })
  } finally {
    await service.stop()
  }
})

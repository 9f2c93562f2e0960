import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from './fixtures'

/**
 * A watchlist import past the 500-list limit, through the page: the panel says the limit and
 * what to do, the lists stay as they were, and the file on disk still loads (a reload tells of
 * no damage and shows the lists).
 */
test('an import of 501 lists is refused, saying the limit; nothing is lost across a reload', async ({
  app: page,
  dataDir,
}) => {
  const address = (i: number): string => `0x${(i + 1).toString(16).padStart(40, '0')}`
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Watchlists' }).click()
  await page.getByLabel('New watchlist name').fill('Kept')
  await page.getByRole('button', { name: 'Create' }).click()
  const lists = page.getByRole('navigation', { name: 'Watchlists' }).getByRole('button')
  await expect(lists).toHaveCount(1)

  const csv = ['list,address,network', ...Array.from({ length: 501 }, (_, i) => `L${i},${address(i)},alpha`)]
  await page
    .getByLabel('Import watchlists file')
    .setInputFiles({ name: 'many.csv', mimeType: 'text/csv', buffer: Buffer.from(csv.join('\r\n')) })
  const alert = page.getByRole('alert').filter({ hasText: 'Nothing was imported' })
  await expect(alert).toContainText('Chainscope keeps at most 500 watchlists')
  await expect(alert).toContainText('You have 1 already and the file would add 501 more')
  await expect(lists).toHaveCount(1)

  // One more change, then a reload: the file is one the app loads.
  await page.getByLabel('New watchlist name').fill('After')
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(lists).toHaveCount(2)
  const saved = JSON.parse(readFileSync(join(dataDir, 'watchlists.json'), 'utf8')) as { lists: { name: string }[] }
  expect(saved.lists.map((l) => l.name)).toEqual(['Kept', 'After'])
  await page.reload()
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Watchlists' }).click()
  await expect(lists).toHaveCount(2)
  await expect(page.getByText(/damaged/)).toHaveCount(0)
})

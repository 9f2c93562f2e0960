import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { connectService, startServiceSandbox, type ServiceSandbox } from './ui-helpers'

/**
 * The web host on a data folder whose disk fills up: the quota count written inside the
 * limiter fails with ENOSPC (a real 1 MiB tmpfs mounted over the data folder; without the
 * right to mount, a read-only folder: EACCES), and the host goes on answering every request,
 * telling the user once in plain words.
 */
test('a full disk: refreshing 30 watched addresses still answers every one, and the user is told once', async ({
  app: page,
  dataDir,
}) => {
  test.setTimeout(180_000)
  const root = process.getuid?.() === 0
  if (root) execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dataDir])
  const key = `e2e_${randomBytes(10).toString('hex')}`
  let service: ServiceSandbox | null = null
  try {
    service = await startServiceSandbox(['--api-key', key])
    await connectService(page, service.info, key)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Watchlists' }).click()
    const network = service.info.networks[0]!
    const rows = Array.from({ length: 30 }, (_, i) => `Many,0x${(i + 1).toString(16).padStart(40, '0')},${network}`)
    await page.getByLabel('Import watchlists file').setInputFiles({
      name: 'many.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(['list,address,network', ...rows].join('\r\n')),
    })
    await expect(page.getByText(/^Imported 30 entries into 1 list\.$/)).toBeVisible()

    let words: string
    if (root) {
      try {
        writeFileSync(join(dataDir, 'filler'), Buffer.alloc(2 * 1024 * 1024))
      } catch {
        // ENOSPC: the filler took what space there was.
      }
      words = 'the disk is full'
    } else {
      chmodSync(dataDir, 0o500)
      words = 'not allowed to write'
    }

    await page.getByRole('button', { name: 'Refresh all' }).click()
    await expect(page.getByRole('status').filter({ hasText: /^Refreshed 30 of 30\.$/ })).toBeVisible({
      timeout: 60_000,
    })
    const told = page.getByText(`Chainscope could not save the daily request count: ${words}.`)
    await expect(told).toHaveCount(1)
    // Still answering: a second round, and a change that needs the disk says why it cannot be made.
    await page.getByRole('button', { name: 'Refresh all' }).click()
    await expect(page.getByRole('status').filter({ hasText: /^Refreshed 30 of 30\.$/ })).toBeVisible({
      timeout: 60_000,
    })
    await expect(told).toHaveCount(1)
    await page.getByLabel('New watchlist name').fill('During')
    await page.getByRole('button', { name: 'Create' }).click()
    await expect(
      page.getByText(new RegExp(`The watchlists could not be saved \\(${words}\\); nothing was changed`)),
    ).toBeVisible()
  } finally {
    await service?.stop()
    if (root) execFileSync('umount', ['-l', dataDir])
    else chmodSync(dataDir, 0o700)
  }
})

import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { BLOCKING_IMPACTS, BLOCKING_RULES, auditBothThemes, describeFindings, type AxeFinding } from './axe'
import { expect, test } from './fixtures'
import { shootBothThemes } from './ui-helpers'

/**
 * Settings → Built-in sandbox (issue 38): Stop says the sandbox is stopped and offers Start;
 * Start brings the same chain back (its height where it was, not the seed's); a killed sandbox
 * is said to have stopped unexpectedly and is not restarted silently; Reset asks first and then
 * goes back to the seed. The chain's truth is read from anvil itself, whose address the
 * sandbox logs into the app's log on every start.
 */

/** The first network's chain as the sandbox's latest start logged it: anvil's URL, and its source. */
function lastAlphaStart(dataDir: string): { url: string; line: string; block: number } | null {
  let log = ''
  try {
    log = readFileSync(join(dataDir, 'logs', 'main.log'), 'utf8')
  } catch {
    return null
  }
  const lines = log.split('\n').filter((l) => /alpha: chain 7001 \(anvil http:\/\/127\.0\.0\.1:\d+\)/.test(l))
  const line = lines.at(-1)
  const url = line ? /\(anvil (http:\/\/127\.0\.0\.1:\d+)\)/.exec(line)![1]! : null
  // "… N transactions to block H, <source>": the head the chain started at.
  return url ? { url, line: line!, block: Number(/ to block (\d+),/.exec(line!)![1]) } : null
}

/** The pid of the sandbox this test's web host started (its --live-state is in the test's data folder). */
function sandboxPid(dataDir: string): number {
  const mine = readdirSync('/proc').filter((name) => {
    if (!/^\d+$/.test(name)) return false
    try {
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0')
      return args.some((a) => a.endsWith('sandbox.js')) && args.includes(join(dataDir, 'sandbox-chains'))
    } catch {
      return false
    }
  })
  expect(mine).toHaveLength(1)
  return Number(mine[0])
}

async function anvilHead(url: string): Promise<number> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  })
  return Number(((await r.json()) as { result: string }).result)
}

test('Settings: Stop sandbox says it is stopped and offers Start; Start resumes the same chain; Reset asks first', async ({
  app,
  dataDir,
}, testInfo) => {
  test.setTimeout(240_000)
  const page = app
  const findings: AxeFinding[] = []
  const audit = async (screen: string): Promise<void> => {
    findings.push(...(await auditBothThemes(page, screen)).findings)
  }

  await page.getByRole('button', { name: 'Start the sandbox' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Open an address' })).toBeVisible({ timeout: 90_000 })
  const first = lastAlphaStart(dataDir)!
  const seedHead = first.block
  // A few live blocks on top of the seed, so a reset to it would show.
  await expect.poll(() => anvilHead(first.url), { timeout: 30_000 }).toBeGreaterThanOrEqual(seedHead + 3)

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
  const panel = page.getByRole('region', { name: 'Built-in sandbox' })
  await expect(panel.getByRole('status')).toHaveText('The sandbox is running.')
  await panel.scrollIntoViewIfNeeded()
  await shootBothThemes(page, testInfo, '40-sandbox-running', { fullPage: false })

  const beforeStop = await anvilHead(first.url)
  await panel.getByRole('button', { name: 'Stop sandbox' }).click()
  await expect(panel.getByRole('status')).toHaveText(
    /^The sandbox is stopped \(since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\)\. Its chains are saved\.$/,
    { timeout: 30_000 },
  )
  await expect(panel.getByRole('button', { name: 'Start sandbox' })).toBeVisible()
  await expect(panel.getByRole('button', { name: 'Stop sandbox' })).toHaveCount(0)
  // The header's connection truth says so too, never the last answer before the stop.
  const connection = page.getByRole('status', { name: 'Connection' })
  await expect(connection).toHaveText(/^Sandbox stopped at \d\d:\d\d/)
  await shootBothThemes(page, testInfo, '41-sandbox-stopped', { fullPage: false })
  await audit('settings, sandbox stopped')

  await panel.getByRole('button', { name: 'Start sandbox' }).click()
  await expect(panel.getByRole('status')).toHaveText('The sandbox is running.', { timeout: 90_000 })
  await expect(connection).not.toHaveText(/Sandbox stopped/)
  const resumed = lastAlphaStart(dataDir)!
  expect(resumed.url).not.toBe(first.url)
  expect(resumed.line).toContain('resumed from its saved state')
  // The same chain: where it was when stopped (the seed's height would be below).
  expect(resumed.block).toBeGreaterThanOrEqual(beforeStop)
  expect(await anvilHead(resumed.url)).toBeGreaterThanOrEqual(beforeStop)
  await audit('settings, sandbox running')

  // A crash: said, with its time and a Start beside it, and not restarted behind the user's back.
  process.kill(sandboxPid(dataDir), 'SIGKILL')
  await expect(panel.getByRole('alert')).toHaveText(
    /^The sandbox stopped unexpectedly at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\. Its chains resume from their last save\.$/,
    { timeout: 30_000 },
  )
  const toast = page
    .getByRole('region', { name: /^Notifications/ })
    .getByRole('listitem')
    .filter({
      hasText: /The sandbox stopped unexpectedly at \d\d:\d\d/,
    })
  await expect(toast.getByRole('button', { name: 'Start sandbox' })).toBeVisible()
  await expect(connection).toHaveText(/^Sandbox stopped unexpectedly at \d\d:\d\d/)
  await shootBothThemes(page, testInfo, '43-sandbox-crashed', { fullPage: false })
  await audit('settings, sandbox stopped unexpectedly')
  // Views that read the chain do not start it again.
  await page.getByRole('link', { name: 'Chainscope home' }).click()
  const home = page.getByRole('main').getByRole('status').filter({ hasText: 'The sandbox stopped unexpectedly.' })
  await expect(home.getByRole('link', { name: 'Start it again in Settings' })).toBeVisible()
  await shootBothThemes(page, testInfo, '44-home-sandbox-crashed', { fullPage: false })
  await audit('home, sandbox stopped unexpectedly')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
  await expect(panel.getByRole('button', { name: 'Start sandbox' })).toBeVisible()
  expect(lastAlphaStart(dataDir)!.url).toBe(resumed.url)
  await panel.getByRole('button', { name: 'Start sandbox' }).click()
  await expect(panel.getByRole('status')).toHaveText('The sandbox is running.', { timeout: 90_000 })
  await expect(toast).toHaveCount(0)
  const again = lastAlphaStart(dataDir)!
  expect(again.url).not.toBe(resumed.url)
  expect(again.line).toContain('resumed from its saved state')

  await panel.getByRole('button', { name: 'Reset sandbox…' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Reset the sandbox?' })
  await expect(dialog).toBeVisible()
  await shootBothThemes(page, testInfo, '42-sandbox-reset-confirm', { fullPage: false })
  await audit('settings, reset dialog')
  await dialog.getByRole('button', { name: 'Keep the chains' }).click()
  await expect(dialog).toBeHidden()
  expect(lastAlphaStart(dataDir)!.url).toBe(again.url)

  await panel.getByRole('button', { name: 'Reset sandbox…' }).click()
  await dialog.getByRole('button', { name: 'Reset sandbox' }).click()
  await expect.poll(() => lastAlphaStart(dataDir)!.url, { timeout: 90_000 }).not.toBe(again.url)
  await expect(panel.getByRole('status')).toHaveText('The sandbox is running.', { timeout: 90_000 })
  const reset = lastAlphaStart(dataDir)!
  expect(reset.line).not.toContain('resumed from its saved state')
  expect(reset.block).toBe(seedHead)

  const blocking = findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact) || BLOCKING_RULES.includes(f.rule))
  expect(describeFindings(blocking), 'serious or critical axe-core violations').toBe('')
})

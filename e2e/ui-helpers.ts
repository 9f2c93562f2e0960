import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { expect, type Page, type TestInfo } from '@playwright/test'
import type { SandboxInfo } from '@shared/domain/sandbox-info'
import { stopChild } from './web-host-process'

const ROOT = resolve(import.meta.dirname, '..')

export type ServiceSandboxInfo = SandboxInfo

export interface ServiceSandbox {
  info: ServiceSandboxInfo
  /** Its process id (to freeze it with SIGSTOP and thaw it with SIGCONT). */
  pid: number
  /** Stops it (SIGTERM) and waits for the exit. */
  stop(): Promise<void>
}

/**
 * A sandbox started by the test itself, standing in for the real service: the test knows its
 * key (it types it into the app like a user would) and can stop it to make the app go offline.
 * It is the built bundle (`out/main/sandbox.js`), the same program the web host launches.
 */
export async function startServiceSandbox(args: string[]): Promise<ServiceSandbox> {
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'out/main/sandbox.js'), '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  // Read stderr continuously: an unread pipe would eventually block the sandbox.
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  const info = await new Promise<ServiceSandboxInfo>((resolveInfo, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start in 120 s:\n${stderr}`)), 120_000)
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer)
      try {
        resolveInfo(JSON.parse(line) as ServiceSandboxInfo)
      } catch (error) {
        reject(new Error(`the sandbox's ready line is not JSON: ${line} (${String(error)})`))
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the sandbox exited with ${code}:\n${stderr}`))
    })
  })
  let stopped: Promise<void> | null = null
  return {
    info,
    pid: child.pid!,
    stop: () =>
      // Waits for the exit; SIGKILL if SIGTERM is not enough within 15 s.
      (stopped ??= stopChild(child, 15_000)),
  }
}

/** A screenshot of the current screen in the light and the dark theme, into the test's output folder. */
export async function shootBothThemes(
  page: Page,
  testInfo: TestInfo,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  const fullPage = options.fullPage ?? true
  // From the top, so the sticky header sits where it belongs in a full-page image.
  if (fullPage) await page.evaluate('window.scrollTo(0, 0)')
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    // Let charts redraw with the theme's colours.
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))')
    await page.screenshot({ path: testInfo.outputPath(`${name}-${colorScheme}.png`), fullPage })
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/** Every file under `dir` (recursively) whose bytes contain `needle`. */
export function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = []
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name)
      const st = statSync(path)
      if (st.isDirectory()) walk(path)
      else if (st.isFile() && readFileSync(path).includes(needle)) hits.push(path)
    }
  }
  walk(dir)
  return hits
}

/** Every file under `dir`, for the report of where the search looked. */
export function countFiles(dir: string): number {
  let n = 0
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name)
      if (statSync(path).isDirectory()) walk(path)
      else n++
    }
  }
  walk(dir)
  return n
}

/** Fills the welcome's service form for a profile "Local service" with networks labelled Alpha and Beta, all but the key. */
export async function fillServiceForm(page: Page, info: ServiceSandboxInfo): Promise<void> {
  await page.getByLabel('Profile name').fill('Local service')
  await page.getByLabel('Data API address').fill(info.base_url)
  await page.getByLabel('RPC address').fill(info.rpc_url)
  await page.getByLabel('First network name').fill(info.networks[0]!)
  await page.getByLabel('First network label').fill('Alpha')
  await page.getByLabel('Second network name').fill(info.networks[1]!)
  await page.getByLabel('Second network label').fill('Beta')
}

/** Fills the welcome's service form with a sandbox's addresses and key, and waits for the explorer. */
export async function connectService(page: Page, info: ServiceSandboxInfo, key: string): Promise<void> {
  await page.getByLabel('Data API address').fill(info.base_url)
  await page.getByLabel('RPC address').fill(info.rpc_url)
  await page.getByLabel('First network name').fill(info.networks[0]!)
  await page.getByLabel('Second network name').fill(info.networks[1]!)
  await page.getByLabel('API key', { exact: true }).fill(key)
  await page.getByRole('button', { name: 'Save and test' }).click()
  await page.getByRole('heading', { level: 1, name: 'Open an address' }).waitFor({ timeout: 30_000 })
}

/**
 * A fresh service sandbox under a fresh key, the app connected to it, `run` given both; the
 * sandbox is stopped afterwards whatever happens.
 */
export async function withConnectedSandbox(
  page: Page,
  run: (service: ServiceSandbox, key: string) => Promise<void>,
): Promise<void> {
  const key = freshKey()
  const service = await startServiceSandbox(['--api-key', key])
  try {
    await connectService(page, service.info, key)
    await run(service, key)
  } finally {
    await service.stop()
  }
}

/** A fresh API key for a test's sandbox. */
export const freshKey = (): string => `e2e_${randomBytes(10).toString('hex')}`

/**
 * A sandbox answering from the replay items in `dir` under `key` (default a fresh one: a test
 * whose items hold the key passes its own), the app connected to it as a user would, and
 * `address` opened from the search box (its page may still be loading).
 */
export async function connectReplay(
  page: Page,
  dir: string,
  address: string,
  key = freshKey(),
): Promise<ServiceSandbox> {
  const service = await startServiceSandbox(['--api-key', key, '--replay', dir])
  try {
    await connectService(page, service.info, key)
    const search = page.getByRole('combobox', { name: 'Address' })
    await search.fill(address)
    await search.press('Enter')
    return service
  } catch (error) {
    await service.stop()
    throw error
  }
}

/** Opens `address` from the search box, as a user types it, and waits for its page. */
export async function openAddress(page: Page, address: string): Promise<void> {
  const search = page.getByRole('combobox', { name: 'Address' })
  await search.fill(address)
  await search.press('Enter')
  await page.getByRole('heading', { level: 1, name: address }).waitFor({ timeout: 30_000 })
}

/** Adds the open address to a new watchlist named `list` through the page's dialog, and waits for it to close. */
export async function addToNewWatchlist(
  page: Page,
  entry: { list: string; label: string; note?: string; tags?: string },
): Promise<void> {
  await page.getByRole('button', { name: 'Add to watchlist' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add to watchlist' })
  await dialog.getByLabel('New watchlist name').fill(entry.list)
  await dialog.getByLabel('Label').fill(entry.label)
  if (entry.note !== undefined) await dialog.getByLabel('Note').fill(entry.note)
  if (entry.tags !== undefined) await dialog.getByLabel('Tags').fill(entry.tags)
  await dialog.getByRole('button', { name: 'Add' }).click()
  await dialog.waitFor({ state: 'hidden' })
}

/**
 * A movement the sandbox mines now (needs --admin): a coin transfer, a token's by `kind`, or coin
 * split through the seed's Router (`router-split`); answers its transaction hash and block.
 */
export async function sandboxTransfer(
  info: ServiceSandboxInfo,
  body: {
    network: string
    to: string
    kind?: 'native' | 'erc20' | 'erc721' | 'erc1155' | 'router-split'
    after?: number
  },
): Promise<{ hash: string; block: number }> {
  const r = await fetch(`${info.base_url}/__sandbox/transfer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!r.ok) throw new Error(`the sandbox's transfer answered ${r.status}: ${await r.text()}`)
  return (await r.json()) as { hash: string; block: number }
}

/** Sets the sandbox's fault switch (needs --admin); `null` clears every fault. */
export async function setFaults(info: ServiceSandboxInfo, faults: Record<string, unknown> | null): Promise<void> {
  const response = await fetch(`${info.base_url}/__sandbox/faults`, {
    method: faults ? 'POST' : 'DELETE',
    headers: { 'content-type': 'application/json' },
    body: faults ? JSON.stringify(faults) : undefined,
  })
  if (!response.ok) throw new Error(`the fault switch answered ${response.status}`)
}

/**
 * Stops the service while the open address page's Refresh is on its way, whatever else the app
 * asks meanwhile: the service (started with --admin) holds every answer from now on, the click
 * goes out while the app still knows it online, and then the service stops with the refresh
 * unanswered. (Stopping it first raced the live height, whose failing poll could turn the app
 * offline and Refresh off before the click.) Waits until the page shows its saved copy.
 */
export async function stopServiceUnderRefresh(page: Page, service: ServiceSandbox): Promise<void> {
  const main = page.getByRole('main')
  await setFaults(service.info, { latency_ms: 60_000 })
  await main.getByRole('button', { name: 'Refresh' }).click()
  await service.stop()
  await expect(main.getByRole('status', { name: 'Data freshness' })).toHaveText(
    /^Saved copy as of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d .*the service cannot be reached\.$/,
    { timeout: 30_000 },
  )
}

const CONTROL_ROLES =
  'button|link|textbox|combobox|checkbox|radio|searchbox|spinbutton|slider|switch|tab|menuitem|listbox|meter|progressbar'

/**
 * Controls on the page without an accessible name, read from Chromium's accessibility tree
 * (Playwright's ARIA snapshot): a line such as `- button` or `- textbox [disabled]` has none.
 */
export async function unnamedControls(page: Page): Promise<string[]> {
  const tree = await page.locator('body').ariaSnapshot()
  const control = new RegExp(`^\\s*- (${CONTROL_ROLES})\\b`)
  const named = new RegExp(`^\\s*- (${CONTROL_ROLES}) "`)
  return tree.split('\n').filter((line) => control.test(line) && !named.test(line))
}

/**
 * On a case page: shows its flow graph, picks the first hop-1 address not loaded yet, expands it
 * with its cost confirmed, and returns that address as the side panel shows it.
 */
export async function expandFirstHop1(page: Page): Promise<string> {
  const main = page.getByRole('main')
  await main.getByRole('button', { name: 'Show flow graph' }).click()
  await expect(
    main
      .getByRole('table', { name: /^Value moved/ })
      .getByRole('row')
      .nth(1),
  ).toBeVisible({
    timeout: 30_000,
  })
  const item = main
    .getByRole('listitem')
    .filter({ hasText: /hop 1(?!.*loaded)/ })
    .first()
  await item.getByRole('button').click()
  const selected = main.getByRole('region', { name: 'Selected address' })
  const address = (await selected.locator('p.mono').textContent())!.trim()
  await selected.getByRole('button', { name: 'Expand', exact: true }).click()
  await page.getByRole('alertdialog', { name: 'Expand?' }).getByRole('button', { name: 'Run' }).click()
  await expect(selected.getByText(/loaded/)).toBeVisible({ timeout: 60_000 })
  return address
}

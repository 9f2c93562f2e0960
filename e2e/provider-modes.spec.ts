import { randomBytes } from 'node:crypto'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import {
  connectService,
  sandboxTransfer,
  startServiceSandbox,
  type ServiceSandbox,
  type ServiceSandboxInfo,
} from './ui-helpers'

/**
 * The app against the sandbox playing each provider behaviour documented ones show, one mode
 * per test (sandbox/README.md, "provider modes"): billing per call (with and without a unit
 * for the batch), a batch cap refused in each form, an `eth_getLogs` range cap refused in each
 * dialect, no `finalized`/`safe` tag, Infura's HTTP 402 at the daily quota, calls refused for
 * rate inside an answered batch. In each: the header height is live, the both-networks card
 * reads both networks with nothing "unknown", and the watch check finds a token transfer to a
 * watched address, every cost in the profile's unit and no error shown.
 */
type Billing = 'request' | 'call' | 'call-plus-batch'
const UNIT: Record<Billing, string> = { request: 'requests', call: 'calls', 'call-plus-batch': 'units' }

interface Mode {
  title: string
  /** The sandbox's flags for this provider. */
  flags: string[]
  /** What the user picks in the setup form for it: what the provider's documentation says it counts. */
  billing: Billing
  /** The both-networks card's cost: two calls a network, in this mode's batches, refusals and retries. */
  cardCost: number
  /** Empty blocks mined before the transfer, so the check's range is wider than the log cap. */
  gap?: number
}

const LOG_CAP = 10
// A 5-call watch check batch over a cap of 3 is refused and split; the card's 2-call batches fit.
const batchCap = (form: string): string[] => ['--batch-cap', '3', '--batch-refusal', form]
const logCap = (dialect: string): string[] => ['--log-cap', String(LOG_CAP), '--log-dialect', dialect]

const MODES: Mode[] = [
  { title: 'billing per call', flags: ['--billing', 'call'], billing: 'call', cardCost: 4 },
  // Batches cost one more than their calls: the card sends single calls.
  {
    title: 'billing per call plus one per batch',
    flags: ['--billing', 'call-plus-batch'],
    billing: 'call-plus-batch',
    cardCost: 4,
  },
  ...['geth', 'besu', 'http-413', 'non-array'].map((form): Mode => ({
    title: `batch cap refused as ${form}`,
    flags: batchCap(form),
    billing: 'request',
    cardCost: 2,
  })),
  ...['max-range', 'too-wide', 'http-413', 'results', 'alchemy', 'infura'].map((dialect): Mode => ({
    title: `log range cap refused as ${dialect}`,
    flags: logCap(dialect),
    billing: 'request',
    cardCost: 2,
    gap: 4 * LOG_CAP,
  })),
  { title: 'no finalized or safe tag', flags: ['--no-finalized'], billing: 'request', cardCost: 2 },
  // The second call of each of the card's batches is refused for rate and sent again alone.
  { title: 'calls refused for rate inside a batch', flags: ['--item-errors', '2'], billing: 'request', cardCost: 4 },
]

/** Starts the sandbox in `mode`, connects the app to it as a user would (the unit chosen in the form). */
async function connect(page: Page, mode: Pick<Mode, 'flags' | 'billing'>): Promise<ServiceSandbox & { key: string }> {
  const key = `e2e_${randomBytes(12).toString('hex')}`
  const service = await startServiceSandbox(['--api-key', key, '--admin', ...mode.flags])
  try {
    // Not the sandbox: the form's guess is the safest (a batch costs its calls and one more).
    await expect(page.getByLabel('The service counts')).toHaveValue('call-plus-batch')
    await page.getByLabel('The service counts').selectOption(mode.billing)
    await page.getByLabel('First network label').fill('Alpha')
    await page.getByLabel('Second network label').fill('Beta')
    await connectService(page, service.info, key)
    return { ...service, key }
  } catch (error) {
    await service.stop()
    throw error
  }
}

/** The Alpha height shown in the header; NaN until one is. */
function headerHeight(page: Page): () => Promise<number> {
  const height = page.getByRole('group', { name: 'Alpha block height and gas price' }).getByTitle(/observed/)
  return async () =>
    (await height.count()) === 0 ? Number.NaN : Number(((await height.textContent()) ?? '').replace(/[^\d]/g, ''))
}

async function bothNetworks(page: Page, info: ServiceSandboxInfo, billing: Billing, cost: number): Promise<void> {
  const search = page.getByRole('combobox', { name: 'Address' })
  await search.fill(info.demo_addresses.alpha!.whale!)
  await search.press('Enter')
  const both = page.getByRole('main').getByRole('region', { name: 'Both networks' })
  await expect(both.getByRole('listitem')).toHaveCount(2, { timeout: 20_000 })
  await expect(both.getByRole('listitem').first()).toContainText('has balances')
  await expect(both).toContainText(`This check cost ${cost} ${UNIT[billing]}`)
  await expect(both).not.toContainText(/unknown/i)
}

const ROLES = ['whale', 'holder', 'empty'] as const

/** A watchlist of three sample wallets, checked once for its baseline; returns the check button. */
async function watchBaseline(page: Page, info: ServiceSandboxInfo, billing: Billing) {
  const wallets = info.demo_addresses.alpha!
  await page.getByRole('link', { name: 'Watchlists' }).click()
  const csv = ['list,address,network,label', ...ROLES.map((r) => `Samples,${wallets[r]},alpha,${r}`)].join('\r\n')
  await page
    .getByLabel('Import watchlists file')
    .setInputFiles({ name: 'samples.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  // The cost before the check runs, in the profile's unit.
  await expect(page.getByLabel(new RegExp(`^Check for changes costs \\d+ ${UNIT[billing]}? \\(`))).toBeVisible({
    timeout: 15_000,
  })
  const check = page.getByRole('button', { name: 'Check for changes' })
  await check.click()
  await expect(
    page.getByRole('status').filter({ hasText: `Checked ${ROLES.length} addresses: 0 changed` }),
  ).toBeVisible({ timeout: 30_000 })
  return check
}

/**
 * A token minted to `holder` (seen only in the logs: its coin balance does not move), after
 * `gap` empty blocks; the next check marks exactly it, says what it cost in the unit, notes nothing.
 */
async function watchFindsTransfer(page: Page, info: ServiceSandboxInfo, mode: Mode): Promise<void> {
  const check = await watchBaseline(page, info, mode.billing)
  await sandboxTransfer(info, {
    network: 'alpha',
    to: info.demo_addresses.alpha!.holder!,
    kind: 'erc20',
    ...(mode.gap ? { after: mode.gap } : {}),
  })
  await check.click()
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: new RegExp(`^Checked ${ROLES.length} addresses: 1 changed, \\d+ ${UNIT[mode.billing]}\\.$`) }),
  ).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('status', { name: 'holder: new since last look' })).toBeVisible()
  await expect(page.getByRole('status', { name: 'whale: new since last look' })).toHaveCount(0)
  await expect(page.getByRole('status').filter({ hasText: /Note:/ })).toHaveCount(0)
}

async function expectMeterIn(page: Page, billing: Billing): Promise<void> {
  await expect(page.getByRole('meter', { name: 'Daily request quota' })).toHaveAttribute(
    'aria-valuetext',
    new RegExp(`^\\d+ of 1000 ${UNIT[billing]} used today`),
  )
}

test.describe('the sandbox playing a provider', () => {
  for (const mode of MODES) {
    test(`${mode.title}: live height, both networks, the watch check, costs in ${UNIT[mode.billing]}`, async ({
      app: page,
    }) => {
      test.setTimeout(120_000)
      const service = await connect(page, mode)
      try {
        const height = headerHeight(page)
        await expect.poll(height, { timeout: 30_000 }).toBeGreaterThan(0)
        const first = await height()
        await test.step('both networks of the busy wallet, nothing unknown', () =>
          bothNetworks(page, service.info, mode.billing, mode.cardCost))
        await test.step('the watch check finds the transfer', () => watchFindsTransfer(page, service.info, mode))
        await test.step('the height went on; the meter counts in the unit; no error anywhere', async () => {
          await expect.poll(height, { timeout: 30_000 }).toBeGreaterThan(first)
          await expectMeterIn(page, mode.billing)
          await expect(page.getByRole('alert')).toHaveCount(0)
        })
        await test.step('Settings keeps the choice; the limits are in the unit', async () => {
          await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click()
          await expect(page.getByLabel('The service counts')).toHaveValue(mode.billing)
          const perDay = { request: 'Requests per day', call: 'Calls per day', 'call-plus-batch': 'Units per day' }
          await expect(page.getByLabel(perDay[mode.billing])).toHaveValue('1000')
        })
      } finally {
        await service.stop()
      }
    })
  }

  test('HTTP 402 at the quota: the day is used up until 00:00 UTC, the meter follows the service', async ({
    app: page,
  }) => {
    test.setTimeout(120_000)
    // A high rate, so the quota can be spent from outside the app (another client of the same key).
    const service = await connect(page, {
      flags: ['--quota-402', '--billing', 'call-plus-batch', '--rate', '2000', '--burst', '2000'],
      billing: 'call-plus-batch',
    })
    try {
      const info = service.info
      const height = headerHeight(page)
      await expect.poll(height, { timeout: 30_000 }).toBeGreaterThan(0)
      await bothNetworks(page, info, 'call-plus-batch', 4)
      await watchBaseline(page, info, 'call-plus-batch')
      await expectMeterIn(page, 'call-plus-batch')

      await test.step('another client of the key spends the rest of the day', async () => {
        const url = `${info.rpc_url.replace(/\/+$/, '')}/alpha/${service.key}`
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] })
        let status = 200
        for (let i = 0; i < 1100 && status !== 402; i++) {
          const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
          status = r.status
          await r.arrayBuffer()
        }
        expect(status).toBe(402)
      })

      await test.step('the next check: the quota used up until 00:00 UTC; the meter follows the service', async () => {
        await page.getByRole('button', { name: 'Check for changes' }).click()
        await expect(
          page.getByRole('status').filter({
            hasText: /Note: alpha: Daily quota used up at the service \(HTTP 402 Payment Required\) until 00:00 UTC\./,
          }),
        ).toBeVisible({ timeout: 30_000 })
        await expect(page.getByRole('meter', { name: 'Daily request quota' })).toHaveAttribute(
          'aria-valuetext',
          /^1000 of 1000 units used today, 0 left, resets at 00:00/,
        )
        // What is left to do: wait for the reset (said beside the button, which waits too).
        await expect(page.getByText("Today's request quota is used up; it resets at 00:00.")).toBeVisible()
        await expect(page.getByRole('button', { name: 'Check for changes' })).toBeDisabled()
      })

      await test.step('an address not seen before: the refusal with its ways forward', async () => {
        const search = page.getByRole('combobox', { name: 'Address' })
        await search.fill(`0x${'00'.repeat(18)}beef`)
        await search.press('Enter')
        const alert = page.getByRole('main').getByRole('alert').first()
        await expect(alert).toContainText("Today's request quota is used up", { timeout: 30_000 })
        await expect(alert).toContainText('00:00')
        await expect(alert.getByRole('link', { name: 'Open watchlists (saved data)' })).toBeVisible()
        await expect(alert.getByRole('button', { name: /^Retry in \d+ (s|min|h)/ })).toBeVisible()
        await expect(page.getByRole('region', { name: 'Both networks' })).toContainText(
          "Today's quota of 1000 units is used up; it resets at 00:00 UTC.",
        )
      })
    } finally {
      await service.stop()
    }
  })
})

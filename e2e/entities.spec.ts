import { randomBytes } from 'node:crypto'
import { rmSync, writeFileSync } from 'node:fs'
import { auditBothThemes, BLOCKING_IMPACTS, BLOCKING_RULES, describeFindings } from './axe'
import { expect, test } from './fixtures'
import {
  connectService,
  openAddress,
  sandboxTransfer,
  shootBothThemes,
  startServiceSandbox,
  type ServiceSandbox,
} from './ui-helpers'
import type { Page } from '@playwright/test'
import { getAddress } from 'viem'

/**
 * What an address, a transaction and a block are (issue 40), on the web host against a sandbox
 * standing in for the service: a seeded token's page says it is a contract (one eth_getCode,
 * its cost shown first) and reads its ERC-20 symbol with no ABI; a bad ABI and a 50 MB file are
 * refused in words; coin split through the seed's Router (mined now, so anvil can trace it)
 * shows its logs and its internal transfers in the transaction detail, and its block page is
 * reached from the detail's block link.
 */
test('entities: a contract read, a transaction’s logs and internal transfers, its block', async ({ app }, testInfo) => {
  test.setTimeout(300_000)
  const page = app
  const key = `e2e_${randomBytes(10).toString('hex')}`
  const service: ServiceSandbox = await startServiceSandbox(['--api-key', key, '--admin'])
  const audit = async (screen: string): Promise<void> => {
    const { findings } = await auditBothThemes(page, screen)
    const blocking = findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact) || BLOCKING_RULES.includes(f.rule))
    expect(blocking, describeFindings(blocking)).toEqual([])
  }
  try {
    await connectService(page, service.info, key)
    const alpha = service.info.demo_addresses.alpha!
    const main = page.getByRole('main')

    await test.step('a token page says it is a contract and reads its symbol without an ABI', async () => {
      await openAddress(page, alpha.token_erc20!)
      const kind = main.getByRole('region', { name: 'Address kind' })
      await expect(kind.getByText('Contract or account?')).toBeVisible({ timeout: 20_000 })
      await expect(kind.getByLabel(/^Check the address kind costs 1 unit/)).toBeVisible()
      await kind.getByRole('button', { name: 'Check the address kind' }).click()
      await expect(kind.getByTestId('address-kind')).toHaveText('Contract', { timeout: 20_000 })
      await expect(kind.getByText(/^[\d,]+ bytes of code$/)).toBeVisible()
      await expect(kind.getByRole('status', { name: 'Address kind freshness' })).toHaveText(/^Fetched /)

      await main.getByRole('tab', { name: 'Contract' }).click()
      await main.getByRole('button', { name: 'Use ERC-20' }).click()
      await readFunction(page, 'function symbol() view returns (string)')
      await expect(main.getByRole('table', { name: 'Decoded answer' }).getByRole('row').nth(1)).toContainText('SGOV')
      await readFunction(page, 'function totalSupply() view returns (uint256)')
      await expect(main.getByRole('table', { name: 'Decoded answer' }).getByRole('row').nth(1)).toContainText(
        /uint256\s*\d{20,}/,
      )
      await shootBothThemes(page, testInfo, 'en1-contract-read')
      await audit('contract tab')
    })

    await test.step('a bad ABI, a hostile name and a 50 MB file are refused, naming what was wrong', async () => {
      await main.getByLabel('Functions from').selectOption('abi')
      await main.getByLabel('ABI (JSON)').fill('this is not { json')
      await main.getByRole('button', { name: 'Use this ABI' }).click()
      await expect(main.getByRole('alert')).toContainText('The ABI is not valid JSON')
      const hostile = [{ type: 'function', name: 'bal\u202eanceOf', stateMutability: 'view', inputs: [], outputs: [] }]
      await main.getByLabel('ABI (JSON)').fill(JSON.stringify(hostile))
      await main.getByRole('button', { name: 'Use this ABI' }).click()
      await expect(main.getByRole('alert')).toContainText('function name that is not a plain identifier')
      // From disk: the browser gets the path, not 50 MB over the wire.
      const huge = testInfo.outputPath('huge.json')
      writeFileSync(huge, Buffer.alloc(50_000_000, 0x20))
      await main.getByLabel('Load an ABI file').setInputFiles(huge)
      rmSync(huge)
      await expect(main.getByRole('alert')).toContainText('“huge.json” is 50.0 MB; an ABI file is at most 2 MB')
    })

    const recipient = getAddress(`0x${randomBytes(20).toString('hex')}`)
    const mint = await sandboxTransfer(service.info, { network: 'alpha', to: recipient, kind: 'erc20' })
    const split = await sandboxTransfer(service.info, { network: 'alpha', to: recipient, kind: 'router-split' })

    await test.step('a token transfer’s logs: its Transfer event decoded, its emitter a link', async () => {
      await openAddress(page, recipient)
      await main.getByRole('tab', { name: 'Transactions' }).click()
      const row = main.getByRole('table', { name: 'Transactions' }).getByTitle(mint.hash)
      await expect(row).toBeVisible({ timeout: 30_000 })
      await row.click()
      const dialog = page.getByRole('dialog', { name: 'Transaction details' })
      await dialog.getByRole('button', { name: 'Load the receipt and logs' }).click()
      const logs = dialog.getByRole('list', { name: 'Event logs' })
      await expect(logs.getByRole('listitem')).toHaveCount(1, { timeout: 20_000 })
      await expect(logs.getByRole('listitem')).toContainText(/#\d+\s*Transfer\s*ERC-20\s*emitted by/)
      await expect(logs.getByRole('link', { name: recipient })).toBeVisible()
      await dialog.getByRole('button', { name: 'Close details' }).click()
    })

    await test.step('the Router: a contract by the service’s word; a split’s logs and internal transfers', async () => {
      await openAddress(page, alpha.contract!)
      await main.getByRole('tab', { name: 'Transactions' }).click()
      const txTable = main.getByRole('table', { name: 'Transactions' })
      const row = txTable.getByTitle(split.hash)
      await expect(row).toBeVisible({ timeout: 30_000 })
      // The loaded transactions name the Router a contract: no eth_getCode, no button.
      await expect(main.getByRole('region', { name: 'Address kind' }).getByTestId('address-kind')).toHaveText(
        'Contract',
      )
      await row.click()
      const dialog = page.getByRole('dialog', { name: 'Transaction details' })
      await expect(dialog.getByRole('heading', { name: 'Logs' })).toBeVisible()
      await expect(dialog.getByLabel(/^Load the receipt and logs costs 1 unit/)).toBeVisible()
      await dialog.getByRole('button', { name: 'Load the receipt and logs' }).click()
      await expect(dialog.getByRole('region', { name: 'Logs' })).toContainText(
        new RegExp(`Receipt: success, gas used [\\d,]+, block ${split.block} · 0 logs`),
        { timeout: 20_000 },
      )
      await expect(dialog.getByRole('status', { name: 'Receipt freshness' })).toHaveText(/^Fetched /)

      await expect(dialog.getByLabel(/^Trace internal transfers costs \d units?/)).toBeVisible()
      await dialog.getByRole('button', { name: 'Trace internal transfers' }).click()
      const transfers = dialog.getByRole('table', { name: 'Internal transfers' })
      // Split three ways: 0.001 coin each to the recipient and two counterparties.
      await expect(transfers.getByRole('row')).toHaveCount(4, { timeout: 20_000 })
      await expect(transfers.getByRole('row').filter({ hasText: recipient.slice(2, 10) })).toContainText(
        '0.001 (1000000000000000 wei)',
        { ignoreCase: true },
      )
      await expect(dialog.getByRole('region', { name: 'Internal transfers' })).toContainText(
        '4 calls traced (callTracer) · 3 internal transfers',
      )
      await shootBothThemes(page, testInfo, 'en2-logs-internal', { fullPage: false })
      await audit('transaction detail with logs and internal transfers')
    })

    await test.step('the block page, reached from the transaction’s block link', async () => {
      const dialog = page.getByRole('dialog', { name: 'Transaction details' })
      await dialog
        .getByRole('link', { name: String(split.block), exact: true })
        .first()
        .click()
      await expect(page.getByRole('heading', { level: 1, name: `Block ${split.block}` })).toBeVisible({
        timeout: 20_000,
      })
      await expect(page).toHaveURL(new RegExp(`#/block/alpha/${split.block}$`))
      const header = main.getByRole('definition').first()
      await expect(header).toBeVisible({ timeout: 20_000 })
      const txs = main.getByRole('list', { name: 'Transactions in this block' })
      await expect(txs).toContainText(split.hash)
      await expect(main.getByLabel(/^Load the transactions' senders, recipients and values costs 1 unit/)).toBeVisible()
      await main.getByRole('button', { name: "Load the transactions' senders, recipients and values" }).click()
      await expect(txs.getByRole('listitem').filter({ hasText: split.hash })).toContainText('0.003', {
        timeout: 20_000,
      })
      await shootBothThemes(page, testInfo, 'en3-block')
      await audit('block page')
    })

    await test.step('the Router’s Internal transfers view: its loaded transactions traced, cost first', async () => {
      await openAddress(page, alpha.contract!)
      await main.getByRole('tab', { name: 'Internal transfers' }).click()
      const run = main.getByRole('button', { name: /^Trace \d+ loaded transactions?$/ })
      await expect(run).toBeVisible({ timeout: 30_000 })
      await expect(main.getByLabel(/^Trace \d+ loaded transactions? costs \d+ units? /)).toBeVisible()
      await run.click()
      await expect(main.getByRole('status', { name: 'Traced' })).toHaveText(/^(\d+) of \1 traced · /, {
        timeout: 60_000,
      })
      const rows = main.getByRole('table', { name: 'Internal transfers of this address' }).getByRole('row')
      await expect(rows.filter({ hasText: recipient })).toContainText('0.001 (1000000000000000 wei)')
      await shootBothThemes(page, testInfo, 'en4-address-internal')
      await audit('address internal transfers')
    })

    await test.step('the flow graph and counterparties count the traced split, marked internal', async () => {
      // The Router forwarded 0.001 coin to the recipient inside the call: a Router → recipient edge.
      const toRecipient = { has: page.getByTitle(`${recipient} on `, { exact: false }) }
      await main.getByRole('tab', { name: 'Flow graph' }).click()
      await expect(main.getByTestId('flows-internal-note')).toHaveText(
        /^(\d+) of \1 loaded transactions traced; internal transfers counted where traced\.$/,
        { timeout: 30_000 },
      )
      const edges = main.getByRole('table', { name: /^Value moved, per sender, receiver and asset/ })
      await expect(edges.getByRole('row').filter(toRecipient)).toContainText('incl. internal')

      await main.getByRole('tab', { name: 'Counterparties' }).click()
      await expect(main.getByText(/\d+ of \d+ loaded transactions traced/)).toBeVisible({ timeout: 30_000 })
      const rows = main.getByRole('table', { name: 'Counterparties' }).getByRole('row')
      await expect(rows.filter(toRecipient)).toContainText('internal')
    })
  } finally {
    await service.stop()
  }
})

/** Picks a view function of the Contract tab and reads it at its shown cost. */
async function readFunction(page: Page, signature: string): Promise<void> {
  const main = page.getByRole('main')
  await main.getByLabel('View function').selectOption(signature)
  await expect(main.getByLabel(/^Read costs 1 unit/)).toBeVisible()
  await main.getByRole('button', { name: 'Read', exact: true }).click()
  await expect(main.getByText(new RegExp(`^${signature.replace(/[()]/g, '\\$&')} read `))).toBeVisible({
    timeout: 20_000,
  })
}

/**
 * A provider that refuses both trace methods (the sandbox's `--traces none`): the refusal is
 * said in words, never a crash, and learnt for the profile, so the next transaction says it at
 * once and for nothing.
 */
test('entities: a provider that refuses traces is said in words and remembered', async ({ app }, testInfo) => {
  test.setTimeout(240_000)
  const page = app
  const key = `e2e_${randomBytes(10).toString('hex')}`
  const service: ServiceSandbox = await startServiceSandbox(['--api-key', key, '--admin', '--traces', 'none'])
  try {
    await connectService(page, service.info, key)
    const alpha = service.info.demo_addresses.alpha!
    const main = page.getByRole('main')
    const to = getAddress(`0x${randomBytes(20).toString('hex')}`)
    const first = await sandboxTransfer(service.info, { network: 'alpha', to, kind: 'router-split' })
    const second = await sandboxTransfer(service.info, { network: 'alpha', to, kind: 'router-split' })
    await openAddress(page, alpha.contract!)
    await main.getByRole('tab', { name: 'Transactions' }).click()
    const txTable = main.getByRole('table', { name: 'Transactions' })
    const dialog = page.getByRole('dialog', { name: 'Transaction details' })
    const internal = dialog.getByRole('region', { name: 'Internal transfers' })

    await expect(txTable.getByTitle(first.hash)).toBeVisible({ timeout: 30_000 })
    await txTable.getByTitle(first.hash).click()
    await expect(internal.getByLabel(/^Trace internal transfers costs 2 units/)).toBeVisible()
    await internal.getByRole('button', { name: 'Trace internal transfers' }).click()
    await expect(internal.getByTestId('trace-refused')).toHaveText(
      /^This provider does not give internal transfers: \S.+/,
      { timeout: 20_000 },
    )
    await dialog.getByRole('button', { name: 'Close details' }).click()

    // Learnt: the next transaction says it at once, without a button or a request.
    await txTable.getByTitle(second.hash).click()
    await expect(internal.getByTestId('trace-refused')).toBeVisible({ timeout: 20_000 })
    await expect(internal.getByRole('button', { name: 'Trace internal transfers' })).toHaveCount(0)
    await expect(internal.getByRole('button', { name: 'Refresh internal transfers' })).toBeVisible()
    await internal.scrollIntoViewIfNeeded()
    await shootBothThemes(page, testInfo, 'en5-trace-refused', { fullPage: false })
  } finally {
    await service.stop()
  }
})

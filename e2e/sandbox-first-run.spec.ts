import { expect, test } from './fixtures'
import { shootBothThemes, unnamedControls } from './ui-helpers'

/**
 * The one-click start: a newcomer with no account presses one button, then opens the
 * sandbox's sample wallets from the home page — no address needs to be known.
 */
test('one click starts the built-in sandbox; sample wallets, heights, NFTs and an empty wallet on both networks', async ({
  app,
}, testInfo) => {
  test.setTimeout(150_000)
  const page = app
  const main = page.getByRole('main')

  await page.getByRole('button', { name: 'Start the sandbox' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Open an address' })).toBeVisible({ timeout: 90_000 })
  await expect(page.getByRole('radio', { name: 'Alpha' })).toBeChecked()
  await expect(page.getByRole('radio', { name: 'Beta' })).not.toBeChecked()

  // Live height and gas per network, pushed by main.
  for (const label of ['Alpha', 'Beta']) {
    await expect(page.getByRole('group', { name: `${label} block height and gas price` })).toContainText(/#[\d,]+/, {
      timeout: 30_000,
    })
  }
  await expect(page.getByRole('meter', { name: 'Daily request quota' })).toHaveAttribute('aria-valuemax', '1000')
  await expect(main.getByRole('heading', { name: 'Sample wallets on Alpha' })).toBeVisible({ timeout: 20_000 })
  await shootBothThemes(page, testInfo, '10-sandbox-home')
  expect(await unnamedControls(page)).toEqual([])

  // An NFT holder on the second network.
  await page.getByRole('radio', { name: 'Beta' }).check({ force: true })
  await expect(main.getByRole('heading', { name: 'Sample wallets on Beta' })).toBeVisible()
  await main.getByRole('button', { name: 'Open the sample wallet: Holds NFTs' }).click()
  await expect(page.getByRole('heading', { level: 1, name: /^0x[0-9a-fA-F]{40}$/ })).toBeVisible()
  await expect(page).toHaveURL(/#\/address\/beta\/0x[0-9a-fA-F]{40}\/balances$/)
  const table = main.getByRole('table', { name: 'Token balances' })
  await expect(table.getByRole('row').nth(1)).toBeVisible({ timeout: 20_000 })
  await main.getByLabel('Token type').selectOption('ERC-721')
  await expect(table.getByRole('row').nth(1).getByRole('cell').nth(6)).toContainText(/#\d+/)
  await shootBothThemes(page, testInfo, '11-sandbox-nft-holder')

  // An address with no activity at all: clear empty states, no errors.
  await page.getByRole('link', { name: 'Chainscope home' }).click()
  await main.getByRole('button', { name: 'Open the sample wallet: Wallet with no activity' }).click()
  await expect(main.getByText('This address holds no tokens on Beta.')).toBeVisible({ timeout: 20_000 })
  const emptyUrl = page.url()
  await main.getByRole('tab', { name: 'Transactions' }).click()
  await expect(main.getByText('No transactions for this address on this network.')).toBeVisible({ timeout: 20_000 })
  await expect(main.getByRole('alert')).toHaveCount(0)

  // Switching network keeps the address and shows it there.
  const address = /#\/address\/beta\/(0x[0-9a-fA-F]{40})/.exec(emptyUrl)![1]!
  await page.getByRole('radio', { name: 'Alpha' }).check({ force: true })
  await expect(page).toHaveURL(new RegExp(`#/address/alpha/${address}/transactions$`))
})

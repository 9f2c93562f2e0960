import { expect, test } from './fixtures'
import { auditBothThemes, BLOCKING_IMPACTS, BLOCKING_RULES, describeFindings } from './axe'

/**
 * Every entity a pivot (issue 39): from the busy wallet, by following links only, to a
 * counterparty, one of its transactions' page, that transaction's block, and Back; an address's
 * menu opened from the keyboard takes it to the other network. The transaction page passes axe.
 */
test('from the busy wallet by links only: a counterparty, its transaction, the block, and back', async ({ app }) => {
  test.setTimeout(240_000)
  const page = app
  const main = page.getByRole('main')

  await test.step('the built-in sandbox and its busy wallet, in clicks', async () => {
    await page.getByRole('button', { name: 'Start the sandbox' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Open an address' })).toBeVisible({ timeout: 90_000 })
    await main
      .getByRole('button', { name: 'Open the sample wallet: Busy wallet: thousands of transactions, many tokens' })
      .click()
    await expect(page.getByRole('heading', { level: 1, name: /^0x[0-9a-fA-F]{40}$/ })).toBeVisible()
  })

  let counterparty = ''
  await test.step('a counterparty, by its link', async () => {
    await main.getByRole('tab', { name: 'Counterparties' }).click()
    await main.getByRole('button', { name: 'Load the first page of transactions' }).click()
    const table = main.getByRole('table', { name: 'Counterparties' })
    const link = table.getByRole('link', { name: /0x[0-9a-fA-F]{40}/ }).first()
    await expect(link).toBeVisible({ timeout: 30_000 })
    // The pivot's title: "<checksummed address> on <network>".
    counterparty = ((await link.getAttribute('title')) ?? '').split(' ')[0]!
    expect(counterparty).toMatch(/^0x[0-9a-fA-F]{40}$/)
    await link.click()
    await expect(page.getByRole('heading', { level: 1, name: counterparty })).toBeVisible()
    await expect(page).toHaveURL(new RegExp(`#/address/alpha/${counterparty}$`))
  })

  let txUrl = ''
  await test.step("one of its transactions, then that transaction's page", async () => {
    await main.getByRole('tab', { name: 'Transactions' }).click()
    await main
      .getByRole('button', { name: /^Transaction 0x[0-9a-f]{6}…[0-9a-f]{6}, open details$/ })
      .first()
      .click({ timeout: 30_000 })
    const detail = page.getByRole('dialog', { name: 'Transaction details' })
    await detail.getByRole('link', { name: "Open the transaction's page" }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Transaction on Alpha' })).toBeVisible()
    await expect(page).toHaveURL(/#\/tx\/alpha\/0x[0-9a-f]{64}$/)
    txUrl = page.url()
    await expect(main.getByRole('heading', { name: 'Overview' })).toBeVisible()
    // The counterparty is one of its parties, as a link.
    await expect(main.getByRole('link', { name: new RegExp(counterparty) }).first()).toBeVisible()
  })

  await test.step('axe: no serious or critical violation on the transaction page', async () => {
    const { findings } = await auditBothThemes(page, 'transaction page')
    const blocking = findings.filter((f) => BLOCKING_IMPACTS.includes(f.impact) || BLOCKING_RULES.includes(f.rule))
    expect(blocking, describeFindings(blocking)).toEqual([])
  })

  await test.step('its block, by its link, then Back', async () => {
    const block = main.getByRole('link', { name: /^\d+$/ }).first()
    const number = (await block.textContent())!.trim()
    await block.click()
    await expect(page.getByRole('heading', { level: 1, name: `Block ${number}`, exact: true })).toBeVisible()
    await expect(page).toHaveURL(new RegExp(`#/block/alpha/${number}$`))
    await page.goBack()
    await expect(page.getByRole('heading', { level: 1, name: 'Transaction on Alpha' })).toBeVisible()
    expect(page.url()).toBe(txUrl)
  })

  await test.step("an address's menu from the keyboard: open it on the other network", async () => {
    const menuButton = main.getByRole('button', { name: `Actions for ${counterparty}` }).first()
    await menuButton.focus()
    await page.keyboard.press('Enter')
    const menu = page.getByRole('menu')
    await expect(menu).toBeVisible()
    const item = menu.getByRole('menuitem', { name: /^Open on the other network/ })
    await expect(item).toHaveText('Open on the other network (Beta)')
    for (let i = 0; i < 10 && !(await item.evaluate((el) => el === el.ownerDocument.activeElement)); i++)
      await page.keyboard.press('ArrowDown')
    await expect(item).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(new RegExp(`#/address/beta/${counterparty}$`))
    await expect(page.getByRole('heading', { level: 1, name: counterparty })).toBeVisible()
  })
})

import { describe, expect, it } from 'vitest'
import { TOKENS, transfer, tx } from '../../testing/analysis-samples'
import { filterChoices } from './filter-choices'
import { fixtureTransactions } from '../../testing/transaction-fixtures'

const ME = `0x${'1'.repeat(40)}`
const BOB = `0x${'2'.repeat(40)}`
const DEX = `0x${'3'.repeat(40)}`

describe('what the filter pickers offer', () => {
  it('on the Blockscout items: the one token touching the address, counterparties by how often', () => {
    const { address, items } = fixtureTransactions()
    const c = filterChoices(items, address)
    expect(c.tokens).toEqual([{ key: '0x55d536e4d6c1993d8ef2e2a4ef77f02088419420', symbol: 'ARIA', count: 1 }])
    // 16 from the sender; the contract creation has no recipient; TX's sender; the ARIA recipient.
    expect(c.parties).toEqual([
      '0x047a81afb05d9b1f8844bf60fca05dccfbc584b9',
      '0x2b51ae4412f79c3c1cb12aa40ea4eceb4e80511a',
      '0x7d20a8d54f955b4483a66ab335635ab66e151c51',
    ])
  })

  it('counts only the new tail of a longer list, and a new list afresh', () => {
    const page1 = [tx(BOB, ME, { token_transfers: [transfer(TOKENS.usdc, BOB, ME, '1')] })]
    const page2 = [...page1, tx(ME, DEX, { token_transfers: [transfer(TOKENS.usdc, ME, DEX, '1')] })]
    expect(filterChoices(page1, ME).tokens[0]!.count).toBe(1)
    const both = filterChoices(page2, ME)
    expect(both.tokens[0]!.count).toBe(2)
    expect(both.parties.sort()).toEqual([BOB, DEX])
    // The same list again is not counted twice; another list starts over.
    expect(filterChoices(page2, ME).tokens[0]!.count).toBe(2)
    expect(filterChoices(page2.slice(1), ME).tokens[0]!.count).toBe(1)
  })
})

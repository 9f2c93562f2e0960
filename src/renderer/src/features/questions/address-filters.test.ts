import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TOKENS, transfer, tx } from '../../testing/analysis-samples'
import { COIN, filterByQuestions, NO_FILTERS, type AddressFilters } from './address-filters'
import { fixtureTransactions, idsOf } from '../../testing/transaction-fixtures'

const { address: ME, byId, items } = fixtureTransactions()
const ids = (f: Partial<AddressFilters>): string[] => idsOf(byId, filterByQuestions(items, ME, { ...NO_FILTERS, ...f }))

const SENDER = '0x047a81afb05d9b1f8844bf60fca05dccfbc584b9'
const ARIA = '0x55d536e4d6c1993d8ef2e2a4ef77f02088419420'
const FROM_10_10 = [
  'base',
  'withWatchListNames',
  'withContractCreation',
  'withTokenTransfer',
  'withDecodedRevertReason',
  'withRawRevertReason',
  'withActionsUniswap',
  'l2tx',
  'stabilityTx',
  'celoTxn',
  'base2',
  'base3',
  'base4',
  'withBlob',
  'withRecipientName',
  'withRecipientEns',
  'withRecipientNameTag',
  'withRecipientContract',
]

describe('address filters on the Blockscout items', () => {
  it('no filter gives the same list back', () => {
    expect(filterByQuestions(items, ME, NO_FILTERS)).toBe(items)
  })

  it('by token: only transfers that touch the address count', () => {
    expect(ids({ token: ARIA })).toEqual(['withTokenTransfer'])
    // Its ERC-1155/404 transfers go between two other addresses: not this address's token.
    expect(ids({ token: '0xf56b7693e4212c584de4a83117f805b8e89224cb' })).toEqual([])
    // The coin: every item with a value to or from it; the pending one has value 0.
    expect(ids({ token: COIN })).toEqual([...FROM_10_10, 'TX'])
  })

  it('by counterparty: the other side of the transaction or of a transfer touching the address', () => {
    expect(ids({ party: SENDER })).toEqual(
      ['pending', ...FROM_10_10].filter((id) => !['withContractCreation', 'base2', 'base3'].includes(id)),
    )
    expect(ids({ party: '0x7d20a8d54f955b4483a66ab335635ab66e151c51' })).toEqual(['withTokenTransfer'])
    expect(ids({ party: '0xbb36c792b9b45aaf8b848a1392b0d6559202729e' })).toEqual([])
    expect(ids({ party: '0x2b51ae4412f79c3c1cb12aa40ea4eceb4e80511a' })).toEqual(['TX'])
    // The address itself is nobody's counterparty: its self-transfers are not found by it.
    expect(ids({ party: ME.toLowerCase() })).toEqual([])
  })

  it('by dates (UTC days, both ends included); pending transactions are on no day', () => {
    expect(ids({ fromDay: '2022-11-01' })).toEqual(['TX'])
    expect(ids({ toDay: '2022-10-10' })).toEqual(FROM_10_10)
    expect(ids({ fromDay: '2022-10-10', toDay: '2022-10-10' })).toEqual(FROM_10_10)
    expect(ids({ fromDay: '2022-11-11', toDay: '2022-11-11' })).toEqual(['TX'])
    expect(ids({ fromDay: '2022-10-11', toDay: '2022-11-10' })).toEqual([])
  })

  it('all at once', () => {
    expect(ids({ token: COIN, party: SENDER, toDay: '2022-10-10' })).toHaveLength(15)
    expect(ids({ token: ARIA, party: '0x7d20a8d54f955b4483a66ab335635ab66e151c51', fromDay: '2022-10-10' })).toEqual([
      'withTokenTransfer',
    ])
    expect(ids({ token: ARIA, party: SENDER })).toEqual(['withTokenTransfer'])
    expect(ids({ token: ARIA, fromDay: '2022-10-11' })).toEqual([])
  })
})

describe('filtering by token then counterparty', () => {
  const me = `0x${'1'.repeat(40)}`
  const people = [me, `0x${'2'.repeat(40)}`, `0x${'3'.repeat(40)}`, `0x${'4'.repeat(40)}`]
  const tokens = [TOKENS.usdc, TOKENS.weth, TOKENS.art]
  const who = fc.constantFrom(...people)
  const aTx = fc
    .record({
      from: who,
      to: fc.option(who, { nil: null }),
      value: fc.constantFrom('0', '1', '1000000000000000000'),
      minute: fc.integer({ min: 0, max: 4 * 24 * 60 }),
      transfers: fc.array(
        fc.record({
          token: fc.constantFrom(...tokens),
          from: who,
          to: who,
          value: fc.bigInt({ min: 0n, max: 10n ** 20n }),
        }),
        { maxLength: 3 },
      ),
    })
    .map((r) =>
      tx(r.from, r.to, {
        value: r.value,
        minute: r.minute,
        token_transfers: r.transfers.map((t) =>
          transfer(t.token, t.from, t.to, t.token.type === 'ERC-721' ? { tokenId: '7' } : t.value.toString()),
        ),
      }),
    )
  const token = fc.option(fc.constantFrom(COIN, ...tokens.map((t) => t.address)), { nil: null })
  const party = fc.option(fc.constantFrom(...people), { nil: null })
  const day = fc.option(fc.constantFrom('2026-01-01', '2026-01-02', '2026-01-03'), { nil: null })

  it('equals filtering the other way round, and both at once', () => {
    fc.assert(
      fc.property(fc.array(aTx, { maxLength: 30 }), token, party, day, (list, t, p, d) => {
        const only = (f: Partial<AddressFilters>, from = list as readonly (typeof list)[number][]) =>
          filterByQuestions(from, me, { ...NO_FILTERS, ...f })
        const tokenFirst = only({ party: p }, only({ token: t, fromDay: d }))
        const partyFirst = only({ token: t, fromDay: d }, only({ party: p }))
        expect(tokenFirst).toEqual(partyFirst)
        expect(tokenFirst).toEqual(only({ token: t, party: p, fromDay: d }))
      }),
    )
  })
})

import { describe, expect, it } from 'vitest'
import { makeBalance, makeTx, OTHER, party } from '../testing/service-samples'
import { balancesResponseSchema, MAX_DECIMAL_DIGITS, transactionsResponseSchema } from './service-schemas'

/** The largest uint256, 78 digits: the longest decimal string a chain can produce. */
const UINT256_MAX = (2n ** 256n - 1n).toString()

describe('decimal strings are held to a uint256', () => {
  it('UINT256_MAX is exactly the cap', () => {
    expect(UINT256_MAX).toHaveLength(MAX_DECIMAL_DIGITS)
  })

  it('a 79-digit balance makes its item unreadable, not the page; 78 digits read', () => {
    const page = balancesResponseSchema.parse({
      items: [makeBalance('BIG', `1${'0'.repeat(78)}`, '18'), makeBalance('MAX', UINT256_MAX, '18')],
      next_page_params: null,
    })
    expect(page.items.map((i) => i.token.symbol)).toEqual(['MAX'])
    expect(page.unreadable).toEqual([
      expect.objectContaining({ index: 0, path: 'value', message: expect.stringMatching(/at most 78 digits/) }),
    ])
  })

  it('a 150,000-digit value is one unreadable item among readable ones', () => {
    const page = balancesResponseSchema.parse({
      items: [makeBalance('A', '1', '18'), makeBalance('HUGE', '7'.repeat(150_000), '18'), makeBalance('B', '2', '0')],
      next_page_params: null,
    })
    expect(page.items.map((i) => i.token.symbol)).toEqual(['A', 'B'])
    expect(page.unreadable.map((u) => [u.index, u.path])).toEqual([[1, 'value']])
  })

  it.each([
    ['value', makeTx(1, { value: '9'.repeat(79) }), 'value'],
    ['fee', makeTx(2, { fee: { type: 'actual', value: '9'.repeat(79) } }), 'fee.value'],
    ['gas_limit', makeTx(3, { gas_limit: '1'.repeat(1000) }), 'gas_limit'],
    ['exchange_rate', makeTx(4, { exchange_rate: `${'1'.repeat(79)}.5` }), 'exchange_rate'],
    [
      'a transfer total',
      makeTx(5, {
        token_transfers: [
          {
            from: party(OTHER),
            to: party(OTHER),
            token: makeBalance('T', '1', '18').token,
            total: { value: '1'.repeat(79), decimals: '18' },
            type: 'token_transfer',
          },
        ],
      }),
      'token_transfers.0.total.value',
    ],
  ])('a transaction whose %s is longer than a uint256 is unreadable', (_what, tx, path) => {
    const page = transactionsResponseSchema.parse({ items: [makeTx(9), tx], next_page_params: null })
    expect(page.items).toHaveLength(1)
    expect(page.unreadable).toEqual([expect.objectContaining({ index: 1, path })])
  })

  it('a rate keeps up to 78 digits on each side of the point', () => {
    const rate = `${'1'.repeat(78)}.${'5'.repeat(78)}`
    const page = transactionsResponseSchema.parse({
      items: [makeTx(1, { exchange_rate: rate })],
      next_page_params: null,
    })
    expect(page.unreadable).toEqual([])
  })
})

import { describe, expect, it } from 'vitest'
import { parseCsv, uncell } from '@shared/csv'
import { TOKENS, transfer, tx } from '../../testing/analysis-samples'
import { fixtureTransactions } from '../../testing/transaction-fixtures'
import { sortTransfers, transferRows, transfersCsv } from './transfer-rows'

const ME = `0x${'1'.repeat(40)}`
const BOB = `0x${'2'.repeat(40)}`

describe('token transfers of the address', () => {
  it('on the Blockscout items: one row for the one transfer touching it, and the cut transaction named', () => {
    const { address, byId, items } = fixtureTransactions()
    const list = transferRows(items, address)
    expect(list.cut).toEqual([byId.get('withTokenTransfer')!.hash])
    expect(list.rows).toHaveLength(1)
    expect(list.rows[0]).toMatchObject({
      token: '0x55d536e4d6c1993d8ef2e2a4ef77f02088419420',
      symbol: 'ARIA',
      decimals: 18,
      value: 31567373703130350n,
      from: address.toLowerCase(),
      to: '0x7d20a8d54f955b4483a66ab335635ab66e151c51',
      direction: 'out',
      cut: true,
    })
    expect(transferRows(items, address, { token: null, party: BOB }).rows).toEqual([])
  })

  it('sorts amounts across decimals by what they are worth, exactly', () => {
    const items = [
      tx(BOB, ME, { minute: 1, token_transfers: [transfer(TOKENS.usdc, BOB, ME, '2000000')] }), // 2 USDC
      tx(ME, BOB, { minute: 2, token_transfers: [transfer(TOKENS.weth, ME, BOB, '1500000000000000001')] }), // 1.500…01
      tx(BOB, ME, { minute: 3, token_transfers: [transfer(TOKENS.pts, BOB, ME, '1')] }), // 1 PTS
    ]
    const { rows } = transferRows(items, ME)
    expect(sortTransfers(rows, 'amount', 'asc').map((r) => r.symbol)).toEqual(['PTS', 'WETH', 'USDC'])
    expect(sortTransfers(rows, 'time', 'desc').map((r) => r.symbol)).toEqual(['PTS', 'WETH', 'USDC'])
    expect(sortTransfers(rows, 'token', 'asc').map((r) => r.symbol)).toEqual(['PTS', 'USDC', 'WETH'])
    expect(transferRows(items, ME, { token: TOKENS.weth.address, party: null }).rows.map((r) => r.direction)).toEqual([
      'out',
    ])
  })

  it('exports CSV with exact amounts and a symbol that would be a formula made harmless', () => {
    const leg = transfer(TOKENS.usdc, BOB, ME, '123456789012345678901')
    const evil = { ...leg, token: { ...leg.token, symbol: '=HYPERLINK("x")' } }
    const items = [tx(BOB, ME, { minute: 1, token_transfers: [evil] })]
    const csv = transfersCsv(transferRows(items, ME).rows)
    const parsed = parseCsv(csv)
    expect(parsed.error).toBeNull()
    const [head, row] = parsed.rows.map((r) => r.cells)
    const cell = (name: string): string => row![head!.indexOf(name)]!
    expect(cell('symbol')).toBe(`'=HYPERLINK("x")`)
    expect(uncell(cell('symbol'))).toBe('=HYPERLINK("x")')
    expect(cell('value_raw')).toBe('123456789012345678901')
    expect(cell('amount')).toBe('123456789012345.678901')
    expect(cell('direction')).toBe('in')
    expect(cell('transfers_cut_by_service')).toBe('no')
  })
})

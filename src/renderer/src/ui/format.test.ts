import { describe, expect, it } from 'vitest'
import { makeBalance, makeBalances, makeTx, ME } from '../testing/samples'
import { csvCell, csvLine } from '@shared/csv'
import { describeError, secondsUntil } from './errors'
import { balancesExport, ExportCancelled, transactionsExport } from '../features/exports/export-build'
import { formatDuration } from '@shared/domain/duration'
import { formatAge } from './time'
import { coin, confirmationRange, decodedInputView, gasUsage, transferViews } from '../features/transactions/tx-detail'
import { ERROR_KINDS } from '@shared/bridge/errors'

describe('csv', () => {
  it('quotes and neutralises formulas', () => {
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
    expect(csvCell('@SUM')).toBe(`"'@SUM"`)
    expect(csvCell(null)).toBe('')
    expect(csvLine([1, 'x', { a: 1 }])).toBe('1,x,"{""a"":1}"')
  })
})

describe('errors', () => {
  it('gives every kind a title and a way forward', () => {
    for (const kind of ERROR_KINDS) {
      const d = describeError({ kind, message: 'm' })
      expect(d.title.length).toBeGreaterThan(3)
      expect(d.hint.length).toBeGreaterThan(3)
    }
    expect(describeError({ kind: 'auth', message: 'x' }).actions).toEqual(['fix-key'])
    expect(describeError({ kind: 'rate-limited', message: 'x', retryAfterMs: 3000 }).retryAfterMs).toBe(3000)
    expect(describeError({ kind: 'rpc', message: 'execution reverted', code: 3 }).detail).toBe('Error 3: execution reverted')
    expect(describeError({ kind: 'bogus', message: 'x' } as never).title).toMatch(/inside Chainscope/)
    expect(secondsUntil(10_500, 9_000)).toBe(2)
    expect(secondsUntil(1, 9_000)).toBe(0)
  })
})

describe('time', () => {
  it('formats ages and durations', () => {
    expect(formatAge(0, 3_000)).toBe('just now')
    expect(formatAge(0, 42_000)).toBe('42 s ago')
    expect(formatAge(0, 5 * 60_000)).toBe('5 min ago')
    expect(formatAge(10 * 3_600_000, 0)).toBe('in 10 h')
    expect(formatAge(null, 0)).toBe('unknown')
    expect(formatDuration(3_900_000)).toBe('1 h 5 min')
  })
})

describe('transaction detail helpers', () => {
  it('reads fees, ranges and transfers', () => {
    expect(coin('21000000000000')).toEqual({ text: '0.000021', wei: '21000000000000' })
    expect(coin('bad').text).toBe('unknown')
    expect(gasUsage('21000', '42000')).toBe('21,000 of 42,000 (50.00 %)')
    expect(confirmationRange([100, 2300])).toBe('between 100 ms and 2.30 s')
    expect(confirmationRange('x')).toBe('unknown')
    const tx = makeTx(0, {
      token_transfers: [{ from: { hash: ME }, to: { hash: ME }, token: { symbol: 'USDC', decimals: '6', address: '0xabc' }, total: { value: '1500000', decimals: '6' }, type: 'token_transfer' }],
    })
    expect(transferViews(tx)?.[0]).toMatchObject({ token: 'USDC', amount: '1.5', type: 'token_transfer' })
    expect(transferViews(makeTx(0, { token_transfers: [5] }))).toBeNull()
    expect(decodedInputView({ method_call: 'transfer(address to, uint256 value)', parameters: [{ name: 'to', type: 'address', value: ME }] })).toEqual({
      call: 'transfer(address to, uint256 value)',
      params: [{ name: 'to', type: 'address', value: ME }],
    })
    expect(decodedInputView(null)).toBeNull()
  })
})

describe('exports', () => {
  it('exports balances as CSV with exact amounts and as JSON with the wire items', async () => {
    const view = makeBalances([makeBalance('WETH', '1234567890123456789', '18', { rate: '2000' }), makeBalance('=BAD', '1', '0')])
    const csv = await balancesExport(view, 'csv')
    const lines = csv.trim().split('\r\n')
    expect(lines[0]).toBe('token_address,name,symbol,type,decimals,value_raw,amount,exchange_rate,fiat_value,token_id')
    expect(lines[1]).toContain(',1234567890123456789,1.234567890123456789,2000,2469.14,')
    expect(lines[2]).toContain("'=BAD")
    const json = JSON.parse(await balancesExport(view, 'json')) as { items: unknown[] }
    expect(json.items).toEqual(view.items)
  })

  it('exports transactions in chunks with progress, and can be cancelled', async () => {
    const items = Array.from({ length: 120 }, (_, i) => makeTx(i))
    const progress: number[] = []
    const csv = await transactionsExport({ network: 'alpha', address: ME, fetchedAt: null }, items, 'csv', { chunk: 50, onProgress: (d) => progress.push(d) })
    expect(csv.trim().split('\r\n')).toHaveLength(121)
    expect(progress).toEqual([50, 100, 120, 120])
    const json = JSON.parse(await transactionsExport({ network: 'alpha', address: ME, fetchedAt: null }, items, 'json')) as { count: number; items: { hash: string }[] }
    expect(json.count).toBe(120)
    expect(json.items[5]!.hash).toBe(items[5]!.hash)
    const controller = new AbortController()
    controller.abort()
    await expect(transactionsExport({ network: 'alpha', address: ME, fetchedAt: null }, items, 'csv', { signal: controller.signal })).rejects.toBeInstanceOf(ExportCancelled)
  })
})

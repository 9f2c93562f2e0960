import { describe, expect, it } from 'vitest'
import { makeBalance, makeBalances, makeTx, ME, party } from '../testing/samples'
import { csvCell, csvLine } from '@shared/csv'
import { UnreadableRow } from '../features/transactions/unreadable-row'
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
    expect(describeError({ kind: 'rpc', message: 'execution reverted', code: 3 }).detail).toBe(
      'Error 3: execution reverted',
    )
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
    expect(confirmationRange([])).toBe('not yet confirmed')
    expect(confirmationRange([5000])).toBe('5.00 s')
    const token = {
      address: '0x00000000000000000000000000000000000000ab',
      symbol: 'USDC',
      name: 'USD Coin',
      decimals: '6',
      type: 'ERC-20',
    }
    const tx = makeTx(0, {
      token_transfers: [
        { from: party(ME), to: party(ME), token, total: { value: '1500000', decimals: '6' }, type: 'token_transfer' },
        {
          from: party(ME),
          to: party(ME),
          token: { ...token, symbol: null, name: null, decimals: null, type: 'ERC-721' },
          total: { token_id: '7' },
          type: 'token_transfer',
        },
      ],
    })
    expect(transferViews(tx)[0]).toMatchObject({ token: 'USDC', amount: '1.5', type: 'ERC-20' })
    expect(transferViews(tx)[1]).toMatchObject({ token: '0x0000…00ab', amount: '1', tokenId: '7', type: 'ERC-721' })
    expect(transferViews(makeTx(0, { token_transfers: null }))).toEqual([])
    expect(
      decodedInputView({
        method_call: 'transfer(address to, uint256 value)',
        parameters: [{ name: 'to', type: 'address', value: ME }],
      }),
    ).toEqual({
      call: 'transfer(address to, uint256 value)',
      params: [{ name: 'to', type: 'address', value: ME }],
    })
    expect(decodedInputView(null)).toBeNull()
  })
})

describe('exports', () => {
  it('exports balances as CSV with exact amounts and as JSON with the wire items', async () => {
    const view = makeBalances([
      makeBalance('WETH', '1234567890123456789', '18', { rate: '2000' }),
      makeBalance('=BAD', '1', '0'),
    ])
    const csv = await balancesExport(view, 'csv')
    const lines = csv.trim().split('\r\n')
    expect(lines[0]).toBe(
      'token_address,name,symbol,type,decimals,value_raw,amount,exchange_rate,fiat_value,token_id,unreadable_raw',
    )
    expect(lines[1]).toContain(',1234567890123456789,1.234567890123456789,2000,2469.14,')
    expect(lines[2]).toContain("'=BAD")
    const json = JSON.parse(await balancesExport(view, 'json')) as { items: unknown[] }
    expect(json.items).toEqual(view.items)
  })

  it('exports unreadable items as raw rows, never drops them', async () => {
    const u = {
      index: 1,
      path: 'value',
      message: 'expected a non-negative decimal string',
      raw: { value: -1, odd: 'x' },
      hash: null,
    }
    const view = makeBalances([makeBalance('WETH', '1', '18')], { unreadable: [u] })
    const lines = (await balancesExport(view, 'csv')).trim().split('\r\n')
    expect(lines).toHaveLength(3)
    expect(lines[2]).toContain('""odd"":""x""')
    const json = JSON.parse(await balancesExport(view, 'json')) as { unreadable: unknown[] }
    expect(json.unreadable).toEqual([{ unreadable: true, path: 'value', message: u.message, raw: u.raw }])
    const row = new UnreadableRow({ ...u, hash: '0x' + 'ab'.repeat(32) }, 0)
    const csv = (await transactionsExport({ network: 'alpha', address: ME, fetchedAt: null }, [makeTx(1), row], 'csv'))
      .trim()
      .split('\r\n')
    expect(csv).toHaveLength(3)
    expect(csv[2]!.startsWith('0x' + 'ab'.repeat(32))).toBe(true)
    expect(csv[2]).toContain('""odd"":""x""')
  })

  it('exports transactions in chunks with progress, and can be cancelled', async () => {
    const items = Array.from({ length: 120 }, (_, i) => makeTx(i))
    const progress: number[] = []
    const csv = await transactionsExport({ network: 'alpha', address: ME, fetchedAt: null }, items, 'csv', {
      chunk: 50,
      onProgress: (d) => progress.push(d),
    })
    expect(csv.trim().split('\r\n')).toHaveLength(121)
    expect(progress).toEqual([50, 100, 120, 120])
    const json = JSON.parse(
      await transactionsExport({ network: 'alpha', address: ME, fetchedAt: null }, items, 'json'),
    ) as { count: number; items: { hash: string }[] }
    expect(json.count).toBe(120)
    expect(json.items[5]!.hash).toBe(items[5]!.hash)
    const controller = new AbortController()
    controller.abort()
    await expect(
      transactionsExport({ network: 'alpha', address: ME, fetchedAt: null }, items, 'csv', {
        signal: controller.signal,
      }),
    ).rejects.toBeInstanceOf(ExportCancelled)
  })
})

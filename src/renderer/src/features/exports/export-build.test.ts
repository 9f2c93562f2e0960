import { describe, expect, it } from 'vitest'
import { makeBalance, makeBalances, makeTx, ME } from '../../testing/samples'
import { UnreadableRow } from '../transactions'
import { balancesExport, ExportCancelled, transactionsExport } from './export-build'

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

  it("carries the user's label of each party: CSV columns beside the service's names, a JSON map", async () => {
    const tx = makeTx(1)
    const labels = new Map([[tx.from.hash.toLowerCase(), 'My desk']])
    const meta = { network: 'alpha', address: ME, fetchedAt: null, labels }
    const [head, row] = (await transactionsExport(meta, [tx], 'csv')).trim().split('\r\n')
    const cols = head!.split(',')
    expect(cols.slice(9, 15)).toEqual(['from', 'from_name', 'from_label', 'to', 'to_name', 'to_label'])
    const cells = row!.split(',')
    expect(cells[cols.indexOf('from_label')]).toBe('My desk')
    expect(cells[cols.indexOf('to_label')]).toBe('')
    const json = JSON.parse(await transactionsExport(meta, [tx], 'json')) as { labels: Record<string, string> }
    expect(json.labels).toEqual({ [tx.from.hash.toLowerCase()]: 'My desk' })
  })
})

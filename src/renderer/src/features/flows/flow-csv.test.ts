import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { party } from '@shared/testing/service-samples'
import { uncell } from '@shared/csv'
import { TOKENS, transfer, tx } from '../../testing/analysis-samples'
import { buildFlowGraph } from './flow-graph'
import { amountText, EDGE_COLUMNS, edgesCsv } from './flow-csv'

const A = '0x1111111111111111111111111111111111111111'
const B = '0x2222222222222222222222222222222222222222'

describe('edgesCsv', () => {
  const g = buildFlowGraph(
    [
      tx(A, B, { value: '123456789012345678901234', minute: 1, to: party(B, { name: '=HYPERLINK("x")' }) }),
      tx(A, B, { minute: 2, token_transfers: [transfer(TOKENS.usdc, A, B, '1500000')] }),
    ],
    { watchLabels: new Map([[A, 'my wallet']]) },
  )

  it('writes every edge with its raw and exact amount, names, and times, a formula-like name guarded', () => {
    const rows = Papa.parse<string[]>(edgesCsv(g.edges, g.nodes).trim()).data
    expect(rows[0]).toEqual(EDGE_COLUMNS)
    expect(rows).toHaveLength(3)
    const coin = rows.find((r) => r[5] === 'coin')!
    expect(coin.slice(0, 4)).toEqual([A, 'my wallet', B, `'=HYPERLINK("x")`])
    expect(uncell(coin[3]!)).toBe('=HYPERLINK("x")')
    expect(coin.slice(6, 9)).toEqual(['123456789012345678901234', '123456.789012345678901234', '1'])
    expect(coin[9]).toBe('2026-01-01T00:01:00.000Z')
    const usdc = rows.find((r) => r[5] === 'USDC')!
    expect(usdc.slice(6, 8)).toEqual(['1500000', '1.5'])
  })

  it('reads amounts exactly, with their symbol', () => {
    expect(g.edges.map(amountText).sort()).toEqual(['1.5 USDC', '123,456.789012345678901234 coin'])
  })
})

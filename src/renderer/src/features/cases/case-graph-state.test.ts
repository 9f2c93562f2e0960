import { describe, expect, it } from 'vitest'
import { graphStateSchema } from '@shared/domain/case-file'
import { pathRecordSchema } from '@shared/domain/case-file'
import { makeTx, party } from '../../testing/samples'
import { fromGraphState, pathRecord, toGraphState, type FlowsSettings } from './case-graph-state'

const A = '0x1111111111111111111111111111111111111111'
const B = '0x2222222222222222222222222222222222222222'

describe('case graph state', () => {
  const s: FlowsSettings = {
    hops: 3,
    direction: 'out',
    asset: 'native',
    fromDate: '2025-01-02',
    toDate: '2025-01-05',
    expanded: [A, B],
    selected: B,
    positions: new Map([
      [A, { x: 1.5, y: -2 }],
      [B, { x: 300, y: 40 }],
    ]),
  }

  it('keeps what the graph shows, in the saved schema, and gives it back for the same network', () => {
    const g = graphStateSchema.parse(toGraphState('alpha', s, 100))
    expect(g.filters).toEqual({
      asset: 'native',
      minAmount: null,
      from: '2025-01-02T00:00:00.000Z',
      to: '2025-01-05T23:59:59.999Z',
      direction: 'out',
    })
    expect(fromGraphState('alpha', g)).toEqual(s)
  })

  it('gives another network none of the expanded addresses, and keeps no more than the limit', () => {
    const g = toGraphState('alpha', s, 1)
    expect(g.expanded).toEqual([{ address: A, network: 'alpha' }])
    expect(fromGraphState('beta', g)).toMatchObject({ expanded: [], selected: null, positions: new Map() })
  })

  it('writes no date for a blank or malformed day', () => {
    const g = toGraphState('alpha', { ...s, fromDate: '', toDate: '2025-13' }, 10)
    expect(g.filters.from).toBeNull()
    expect(g.filters.to).toBeNull()
  })

  it('keeps a path answer with each hop’s transactions, in the saved schema', () => {
    const txs = [
      makeTx(1, { hash: `0x${'1'.repeat(64)}`, from: party(A), to: party(B), value: '5' }),
      makeTx(2, { hash: `0x${'2'.repeat(64)}`, from: party(B), to: party(A), value: '7' }),
    ]
    const edge = {
      id: 'e',
      from: A,
      to: B,
      asset: 'native',
      symbol: 'coin',
      decimals: 18,
      value: 5n,
      count: 1,
      firstMs: 1,
      lastMs: 1,
      internal: 0,
    }
    const q = {
      network: 'alpha',
      from: A.toUpperCase().replace('0X', '0x'),
      to: B,
      maxHops: 3,
      undirected: false,
      askedAt: '2030-01-01T00:00:00.000Z',
      transactions: txs,
    }
    const r = pathRecordSchema.parse(pathRecord({ ...q, answer: [edge] }))
    expect(r.from).toBe(A)
    expect(r.answer).toEqual([
      {
        from: A,
        to: B,
        asset: 'native',
        symbol: 'coin',
        decimals: 18,
        value: '5',
        count: 1,
        firstMs: 1,
        lastMs: 1,
        hashes: [`0x${'1'.repeat(64)}`],
      },
    ])
    expect(pathRecordSchema.parse(pathRecord({ ...q, answer: null })).answer).toBeNull()
  })
})

import { describe, expect, it } from 'vitest'
import { graphStateSchema } from '@shared/domain/case-file'
import { fromGraphState, toGraphState, type FlowsSettings } from './case-graph-state'

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
    expect(fromGraphState('beta', g)).toMatchObject({ expanded: [], selected: null })
  })

  it('writes no date for a blank or malformed day', () => {
    const g = toGraphState('alpha', { ...s, fromDate: '', toDate: '2025-13' }, 10)
    expect(g.filters.from).toBeNull()
    expect(g.filters.to).toBeNull()
  })
})

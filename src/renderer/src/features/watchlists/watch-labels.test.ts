import { describe, expect, it } from 'vitest'
import type { Watchlist } from '@shared/bridge/contract'
import type { AddressLabel } from '@shared/domain/address-label'
import { watchLabelsOn } from './watch-labels'

const A = '0x1111111111111111111111111111111111111111'
const B = '0x2222222222222222222222222222222222222222'
const at = '2030-01-01T00:00:00.000Z'
const lists: Watchlist[] = [
  {
    id: 'w',
    name: 'W',
    entries: [{ id: 'e', address: A, network: 'alpha', label: 'Watched', note: '', tags: [], addedAt: at }],
  },
]
const labels: AddressLabel[] = [
  { address: A, network: 'alpha', label: 'Mine A', note: '', updatedAt: at },
  { address: B, network: 'alpha', label: 'Router\u200B', note: '', updatedAt: at },
  { address: B, network: 'beta', label: 'Beta router', note: '', updatedAt: at },
]

describe('watchLabelsOn: the user names of one network', () => {
  it('a watchlist label first, then the address label of that network, shown like a service name', () => {
    expect([...watchLabelsOn(lists, 'alpha', labels)]).toEqual([
      [A, 'Watched'],
      [B, 'Router'],
    ])
    expect([...watchLabelsOn(lists, 'beta', labels)]).toEqual([[B, 'Beta router']])
    expect(watchLabelsOn(lists, null, labels).size).toBe(0)
  })
})

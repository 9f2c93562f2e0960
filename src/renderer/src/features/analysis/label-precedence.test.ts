import { beforeEach, describe, expect, it } from 'vitest'
import { useAnalysisStore } from './analysis-store'
import type { Counterparty } from './counterparties'
import { useTransactionsStore } from '../transactions'
import { useWatchlistsStore } from '../watchlists'
import { setupTestApp, type TestApp } from '../../testing/mount'
import { makePage, ME, OTHER } from '../../testing/samples'
import { useLabelsStore } from '../labels'

const THIRD = '0x3333333333333333333333333333333333333333'
const at = '2030-01-01T00:00:00.000Z'
const party = (address: string, label: string | null) => ({ address, label }) as Counterparty

describe('where an address label shows', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
  })

  it('counterparties: a watchlist label first, then your address label, then the service name', async () => {
    t.bridge.handle('data.transactions', () => makePage(0, 1, null))
    t.bridge.handle('watchlists.list', () => [
      {
        id: 'w',
        name: 'W',
        entries: [{ id: 'e', address: OTHER, network: 'alpha', label: 'Watched', note: '', tags: [], addedAt: at }],
      },
    ])
    t.bridge.handle('labels.list', () => [
      { address: OTHER, network: 'alpha', label: 'Mine (other)', note: '', updatedAt: at },
      { address: THIRD, network: 'alpha', label: '\u202Egnp.exe', note: '', updatedAt: at },
      { address: ME, network: 'beta', label: 'Other network', note: '', updatedAt: at },
    ])
    await useTransactionsStore().open('alpha', ME)
    await useWatchlistsStore().load()
    await useLabelsStore().load()
    const a = useAnalysisStore()
    expect(a.labelOf(party(OTHER, 'Service'))).toBe('Watched')
    // Imported text is shown like a service name: the bidi override is gone.
    expect(a.labelOf(party(THIRD, 'Service'))).toBe('gnp.exe')
    // A label on another network does not apply here.
    expect(a.labelOf(party(ME, 'Service'))).toBe('Service')
    t.bridge.emit('labels.changed', [])
    expect(a.labelOf(party(THIRD, 'Service'))).toBe('Service')
  })
})

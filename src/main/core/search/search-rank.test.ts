import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AddressLabel } from '@shared/domain/address-label'
import { makeTx, ME, OTHER, party } from '@shared/testing/service-samples'
import { SnapshotStore } from '../data/snapshot-store'
import { SearchService } from './search-service'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'search-rank-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const ROUTER = '0x7777777777777777777777777777777777777777'
const at = '2030-01-01T00:00:00.000Z'

async function setup(labels: AddressLabel[]) {
  const snapshots = new SnapshotStore({ root: join(dir, 'snapshots') })
  const search = new SearchService({
    snapshots,
    profileId: () => 'p1',
    watchlists: () => [],
    notes: () => [],
    labels: () => labels,
  })
  // Thirty cached transactions all sent to a party the service names "Uniswap Router".
  const items = Array.from({ length: 30 }, (_, i) =>
    makeTx(i + 1, { to: party(OTHER, { name: 'Uniswap Router' }), method: 'swap' }),
  )
  await snapshots.writePage(
    { profileId: 'p1', network: 'alpha', address: ME, cursor: null },
    { fetchedAt: 1, items, nextCursor: null },
  )
  return search
}

describe('search ranking: labels and addresses before transactions, with what matched', () => {
  it('"Router" gives the labelled Router address first, then the transactions, each saying what matched', async () => {
    const search = await setup([
      { address: ROUTER, network: 'alpha', label: 'Router', note: 'swaps go here', updatedAt: at },
    ])
    const { hits } = await search.query('Router', 20)
    expect(hits).toHaveLength(20)
    expect(hits[0]).toMatchObject({ kind: 'label', address: ROUTER, matched: ['label'] })
    expect(hits.slice(1).every((h) => h.kind === 'transaction')).toBe(true)
    expect(hits[1]!.matched).toEqual(['name, method or token'])
  })

  it('a label found by its note says "note"; an address prefix says "address"; a hash prefix says "tx hash"', async () => {
    const search = await setup([
      { address: ROUTER, network: 'alpha', label: 'Desk', note: 'swaps go here', updatedAt: at },
    ])
    expect((await search.query('swaps', 5)).hits[0]).toMatchObject({ kind: 'label', matched: ['note'] })
    expect((await search.query(ROUTER.slice(0, 10), 5)).hits[0]).toMatchObject({ kind: 'label', matched: ['address'] })
    const hash = makeTx(3).hash
    const byHash = (await search.query(hash, 5)).hits
    expect(byHash[0]).toMatchObject({ kind: 'transaction', hash, matched: ['tx hash'] })
  })

  it('labels rank first even when transactions would fill the limit', async () => {
    const search = await setup([
      { address: ROUTER, network: 'alpha', label: 'Uniswap Router', note: '', updatedAt: at },
    ])
    const { hits } = await search.query('uniswap', 5)
    expect(hits.map((h) => h.kind)).toEqual(['label', 'transaction', 'transaction', 'transaction', 'transaction'])
  })
})

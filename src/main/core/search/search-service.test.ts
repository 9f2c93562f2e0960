import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Note, Watchlist } from '@shared/bridge/contract'
import { makeBalance, makeTx, ME, OTHER, party } from '@shared/testing/service-samples'
import { SnapshotStore } from '../data/snapshot-store'
import { CachedSearch } from './cached-search'
import { SearchService } from './search-service'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'search-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const W = '0x52908400098527886e0f7030069857d2e4169ee7'
const usdc = {
  token: { address: `0x${'c'.repeat(40)}`, symbol: 'USDC', name: 'USD Coin', decimals: '6', type: 'ERC-20' },
  from: party(OTHER),
  to: party(ME),
  total: { value: '1', decimals: '6' },
  type: 'token_transfer',
}

function setup(lists: Watchlist[] = [], notes: Note[] = []) {
  const snapshots = new SnapshotStore({ root: join(dir, 'snapshots') })
  const state = { lists, notes }
  const search = new SearchService({
    snapshots,
    profileId: () => 'p1',
    watchlists: () => state.lists,
    notes: () => state.notes,
  })
  return { snapshots, search, state }
}

describe('SearchService (cached pages, balances, watchlists, notes; no requests)', () => {
  it('finds a cached transaction by hash prefix, address prefix, method, token symbol and label, with the item to open', async () => {
    const { snapshots, search } = setup()
    const swap = makeTx(7, {
      method: 'swapExactTokensForTokens',
      token_transfers: [usdc],
      to: party(OTHER, { name: 'Uniswap Router' }),
    })
    await snapshots.writePage(
      { profileId: 'p1', network: 'alpha', address: ME, cursor: null },
      { fetchedAt: 1, items: [makeTx(1), swap], nextCursor: null },
    )
    // Both sample hashes start with this prefix (they differ in their last digit): both are found.
    const byHash = await search.query(swap.hash.slice(0, 12), 10)
    expect(byHash.hits.map((h) => h.hash).sort()).toEqual([makeTx(1).hash, swap.hash])
    expect(byHash.hits.find((h) => h.hash === swap.hash)).toMatchObject({
      kind: 'transaction',
      network: 'alpha',
      hash: swap.hash,
      address: ME,
      tx: { hash: swap.hash },
    })
    expect((await search.query('swapexact', 10)).hits.map((h) => h.hash)).toEqual([swap.hash])
    expect((await search.query('usdc', 10)).hits.map((h) => h.hash)).toEqual([swap.hash])
    expect((await search.query('uniswap', 10)).hits.map((h) => h.hash)).toEqual([swap.hash])
    expect((await search.query(OTHER.slice(0, 8), 10)).hits).toHaveLength(2)
    expect((await search.query('0x', 10)).hits).toEqual([]) // too short to enumerate every hash
    expect(byHash.cachedItems).toBe(2)
  })

  it('indexes balances, watch entries and notes, and follows their changes', async () => {
    const list: Watchlist = {
      id: 'l',
      name: 'Funds',
      entries: [
        {
          id: 'e',
          address: W,
          network: 'beta',
          label: 'Treasury',
          note: 'multisig of the DAO',
          tags: ['dao'],
          addedAt: '2030-01-01T00:00:00.000Z',
        },
      ],
    }
    const { snapshots, search, state } = setup([list])
    await snapshots.writeBalances('p1', 'alpha', ME, { fetchedAt: 5, items: [makeBalance('WETH', '1', '18')] })
    expect((await search.query('weth', 10)).hits[0]).toMatchObject({ kind: 'address', network: 'alpha', address: ME })
    expect((await search.query('multisig', 10)).hits[0]).toMatchObject({
      kind: 'watch-entry',
      network: 'beta',
      address: W,
    })
    expect((await search.query('treasury', 10)).hits).toHaveLength(1)

    const tx = makeTx(3)
    await snapshots.writePage(
      { profileId: 'p1', network: 'alpha', address: ME, cursor: null },
      { fetchedAt: 1, items: [tx], nextCursor: null },
    )
    state.notes = [
      {
        kind: 'tx',
        network: 'alpha',
        key: tx.hash,
        text: 'refund for order 1234',
        updatedAt: '2030-01-01T00:00:00.000Z',
      },
    ]
    search.markDirty('notes')
    const noteHit = (await search.query('refund order', 10)).hits[0]
    expect(noteHit).toMatchObject({ kind: 'note', hash: tx.hash, address: ME, tx: { hash: tx.hash } })

    // A page rewritten without the transaction drops it from the index.
    await snapshots.writePage(
      { profileId: 'p1', network: 'alpha', address: ME, cursor: null },
      { fetchedAt: 2, items: [], nextCursor: null },
    )
    expect((await search.query(tx.hash, 10)).hits.map((h) => h.kind)).toEqual(['note'])
  })

  it('keeps a transaction held by two pages until both let go of it', () => {
    const index = new CachedSearch()
    const doc = {
      id: 'tx|a|0x01',
      kind: 'transaction' as const,
      network: 'a',
      address: null,
      hash: '0x01',
      title: '',
      detail: '',
      hex: ['0x0123456789'],
      text: ['transfer'],
    }
    index.setSource('p1', [doc])
    index.setSource('p2', [doc])
    index.removeSource('p1')
    expect(index.search('0x012345').map((d) => d.id)).toEqual(['tx|a|0x01'])
    index.removeSource('p2')
    expect(index.search('0x012345')).toEqual([])
    expect(index.size).toBe(0)
  })

  it('indexes a text many items share once, and finds each item that still carries it', () => {
    const index = new CachedSearch()
    const doc = (n: number) => ({
      id: `tx|a|${n}`,
      kind: 'transaction' as const,
      network: 'a',
      address: null,
      hash: null,
      title: '',
      detail: '',
      hex: [`0x${String(n).padStart(8, '0')}`],
      text: ['transfer', 'USDC'],
    })
    index.setSource('p1', [doc(1), doc(2)])
    index.setSource('p2', [doc(3)])
    expect(index.search('usdc').map((d) => d.id)).toEqual(['tx|a|1', 'tx|a|2', 'tx|a|3'])
    expect(index.search('usdc', 2)).toHaveLength(2)
    expect(index.search('0x00000003 transfer').map((d) => d.id)).toEqual(['tx|a|3'])
    index.removeSource('p1')
    expect(index.search('usdc').map((d) => d.id)).toEqual(['tx|a|3'])
    index.removeSource('p2')
    expect(index.search('usdc')).toEqual([])
  })
})

import { describe, expect, it } from 'vitest'
import type { Watchlist } from '@shared/bridge/contract'
import { makeBalance, makeTx, ME, OTHER, party } from '@shared/testing/service-samples'
import { partiesOf, PartyBook } from './approval-parties'

const ROUTER = '0x00000000000000000000000000000000000000bb'

describe('PartyBook', () => {
  it('names a spender from loaded address objects and watchlists, with its marks and tags', () => {
    const tx = makeTx(1, {
      from: party(ME),
      to: party(ROUTER, {
        name: 'Router',
        is_contract: true,
        is_verified: true,
        public_tags: [{ label: 'dex', display_name: 'DEX router' }],
        private_tags: ['mine'],
      }),
    })
    const lists: Watchlist[] = [
      {
        id: 'l',
        name: 'Watched',
        entries: [
          { id: 'a', address: ROUTER, network: 'beta', label: 'Known router', note: '', tags: [], addedAt: '' },
          {
            id: 'b',
            address: OTHER,
            network: 'beta',
            label: 'Elsewhere only',
            note: '',
            tags: [],
            addedAt: '',
            alsoNetworks: ['gamma'],
          },
        ],
      },
    ]
    const onAlpha = new PartyBook([partiesOf([tx])], [], lists, 'alpha')
    expect(onAlpha.party(ROUTER)).toEqual({
      address: ROUTER,
      name: 'Router',
      tags: ['DEX router', 'mine'],
      watchlistLabel: null,
      isContract: true,
      isVerified: true,
    })
    expect(new PartyBook([partiesOf([tx])], [], lists, 'beta').party(ROUTER).watchlistLabel).toBe('Known router')
    expect(new PartyBook([partiesOf([tx])], [], lists, 'gamma').party(OTHER).watchlistLabel).toBe('Elsewhere only')
  })

  it('knows tokens from balances (kind, decimals) and marks them as contracts', () => {
    const item = makeBalance('USDX', '5', '6', { rate: '1' })
    const address = item.token.address.toLowerCase()
    const book = new PartyBook([], [item], [], 'alpha')
    expect(book.kinds().get(address)).toBe('ERC-20')
    expect(book.decimals(address)).toBe(6)
    expect(book.party(address)).toMatchObject({ name: 'USDX Token', isContract: true })
    expect(book.party(ROUTER)).toMatchObject({ name: null, isContract: null, tags: [] })
  })
})

import type { AddressInternalView } from '@shared/bridge/entity-types'
import { tx } from './analysis-samples'

/** Test support: a router that forwards coin inside the call, traced (and one later call, not traced). */
export const WALLET = '0x1111111111111111111111111111111111111111'
export const ROUTER = '0x2222222222222222222222222222222222222222'
export const ALICE = '0x3333333333333333333333333333333333333333'
export const BOB = '0x4444444444444444444444444444444444444444'

/** The wallet sends the router 10 wei; inside the call the router forwards 6 to Alice and 4 to Bob. */
export const split = tx(WALLET, ROUTER, { value: '10', minute: 1 })
export const later = tx(WALLET, ROUTER, { value: '5', minute: 2 })

/** What main answers for the router's page: depth 0 is the top call (the item's own value). */
export const routerView: AddressInternalView = {
  network: 'alpha',
  address: ROUTER,
  transfers: [
    { hash: split.hash, from: WALLET, to: ROUTER, value: '10', kind: 'call', depth: 0, internal: true },
    { hash: split.hash, from: ROUTER, to: ALICE, value: '6', kind: 'call', depth: 1, internal: true },
    { hash: split.hash, from: ROUTER, to: BOB, value: '4', kind: 'call', depth: 1, internal: true },
  ],
  traced: [split.hash],
  untraced: [later.hash],
}

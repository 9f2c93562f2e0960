import { describe, expect, it } from 'vitest'
import { internalByHash, tracedNote } from '../../platform/traced-internal'
import { ALICE, BOB, ROUTER, WALLET, later, routerView as view, split } from '../../testing/router-split'
import { counterparties } from './counterparties'

const row = (rows: { address: string }[], a: string) => rows.find((r) => r.address === a)

describe('counterparties with traced internal transfers', () => {
  const s = counterparties([split, later], ROUTER, null, internalByHash(view))

  it('the router → recipients rows appear, counted as coin out and marked internal', () => {
    expect(row(s.rows, ALICE)).toMatchObject({ nativeOut: 6n, nativeIn: 0n, txOut: 1, internal: 1 })
    expect(row(s.rows, BOB)).toMatchObject({ nativeOut: 4n, nativeIn: 0n, txOut: 1, internal: 1 })
  })

  it('the depth-0 frame is the item itself: the wallet sent 10 + 5, not 25, none of it internal', () => {
    expect(row(s.rows, WALLET)).toMatchObject({ nativeIn: 15n, txIn: 2, internal: 0 })
  })

  it('without traces (or only an untraced transaction) nothing internal is added', () => {
    expect(counterparties([split, later], ROUTER).rows.map((r) => r.address)).toEqual([WALLET])
    expect(counterparties([later], ROUTER, null, internalByHash(view)).rows).toHaveLength(1)
  })

  it('an asset filter on a token leaves the internal coin out', () => {
    expect(counterparties([split], ROUTER, '0xdead', internalByHash(view)).rows).toEqual([])
  })

  it('says how many loaded transactions were traced', () => {
    expect(tracedNote(view)).toBe('1 of 2 loaded transactions traced; internal transfers counted where traced.')
    expect(tracedNote(null)).toBeNull()
  })
})

import { describe, expect, it } from 'vitest'
import type { Transaction } from '@shared/domain/service-schemas'
import { isFailed } from '@shared/domain/tx-state'
import { makeTx, ME, OTHER, party } from '../../testing/samples'
import { activityBuckets, directionOf, filterTransactions, methodLabel, partyView, statusLabel } from './tx-view'

describe('direction', () => {
  it('is relative to the open address, case-insensitively', () => {
    expect(directionOf(makeTx(0), ME)).toBe('out')
    expect(directionOf(makeTx(1), ME)).toBe('in')
    expect(directionOf(makeTx(0, { to: party(ME) }), ME.toUpperCase().replace('0X', '0x'))).toBe('self')
  })

  it('follows token transfers when the address is neither sender nor recipient', () => {
    const viaToken = makeTx(2, {
      from: party(OTHER),
      to: party(OTHER),
      token_transfers: [
        {
          from: party(OTHER),
          to: party(ME),
          token: { address: OTHER, name: null, symbol: null, decimals: null, type: 'ERC-721' },
          total: { token_id: '1' },
          type: 'token_transfer',
        },
      ],
    })
    expect(directionOf(viaToken, ME)).toBe('in')
    expect(directionOf(makeTx(2, { from: party(OTHER), to: party(OTHER) }), ME)).toBe('other')
  })

  it('copes with a missing recipient and malformed transfers', () => {
    expect(directionOf(makeTx(1, { to: null, token_transfers: null }), ME)).toBe('other')
    expect(directionOf(makeTx(1, { to: null, token_transfers: [] }), ME)).toBe('other')
  })
})

describe('labels and filters', () => {
  it('labels method, status and parties', () => {
    expect(methodLabel(makeTx(0, { method: 'transfer' }))).toBe('transfer')
    expect(methodLabel(makeTx(0, { raw_input: '0xa9059cbb0000' }))).toBe('0xa9059cbb')
    expect(methodLabel(makeTx(0))).toBe('transfer')
    const failed = makeTx(0, { status: 'error', result: 'Reverted' })
    expect(isFailed(failed)).toBe(true)
    expect(statusLabel(failed)).toBe('Failed: Reverted')
    expect(statusLabel(makeTx(0))).toBe('Success')
    const p = partyView(party(ME.replace(/1/g, 'a'), { name: 'Vault', is_contract: true, is_verified: true }))
    expect(p).toMatchObject({ name: 'Vault', isContract: true, isVerified: true })
    expect(p.address).toMatch(/^0x[aA]{40}$/)
    expect(partyView(null).address).toBeNull()
  })

  it('filters by direction, kind and status', () => {
    const items: Transaction[] = [makeTx(0), makeTx(1), makeTx(2, { tx_types: ['token_transfer'], status: 'error' })]
    expect(filterTransactions(items, ME, { direction: 'in', type: 'all', status: 'all' })).toHaveLength(1)
    expect(filterTransactions(items, ME, { direction: 'all', type: 'token_transfer', status: 'all' })).toHaveLength(1)
    expect(filterTransactions(items, ME, { direction: 'all', type: 'all', status: 'failed' })).toHaveLength(1)
    expect(filterTransactions(items, ME, { direction: 'all', type: 'all', status: 'all' })).toBe(items)
  })
})

describe('activity', () => {
  it('buckets by the smallest step that fits and fills gaps', () => {
    const items = [0, 1, 5].map((i) => makeTx(i)) // minutes apart
    const { bucketMs, buckets } = activityBuckets(items, ME)
    expect(bucketMs).toBe(60_000)
    expect(buckets).toHaveLength(6)
    expect(buckets.reduce((s, b) => s + b.in + b.out + b.other, 0)).toBe(3)
    expect(buckets[0]!.label).toMatch(/^2025-12-31 23:55$/)
  })

  it('uses days for long spans and ignores bad timestamps', () => {
    const items = [makeTx(0), makeTx(1, { timestamp: '2025-11-01T00:00:00.000000Z' }), makeTx(2, { timestamp: 'nope' })]
    const { bucketMs, buckets } = activityBuckets(items, ME)
    expect(bucketMs).toBe(7 * 86_400_000)
    expect(buckets.reduce((s, b) => s + b.in + b.out + b.other, 0)).toBe(2)
    expect(activityBuckets([], ME).buckets).toEqual([])
  })
})

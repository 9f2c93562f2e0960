import { describe, expect, it } from 'vitest'
import { describeCost, estimateCost } from './cost'

describe('estimateCost', () => {
  it('tells requests, share of what is left, and whether the reserve is crossed', () => {
    const small = estimateCost(12, { leftToday: 900, reserve: 200 })
    expect(small).toEqual({
      requests: 12,
      billing: 'request',
      leftToday: 900,
      percentOfLeft: 1.4,
      reserve: 200,
      crossesReserve: false,
      exceedsLeft: false,
    })
    expect(describeCost(small)).toBe('12 requests (1.4 % of the 900 left today)')
    expect(estimateCost(701, { leftToday: 900, reserve: 200 }).crossesReserve).toBe(true)
    expect(estimateCost(700, { leftToday: 900, reserve: 200 }).crossesReserve).toBe(false)
    const over = estimateCost(5, { leftToday: 0, reserve: 200 })
    expect(over).toMatchObject({ exceedsLeft: true, crossesReserve: true })
    expect(describeCost(over)).toBe('5 requests (more than all of the 0 left today)')
    expect(estimateCost(0, { leftToday: 0, reserve: 0 })).toMatchObject({ percentOfLeft: 0, crossesReserve: false })
  })

  it('counts in the unit the service bills, never "requests" where it counts calls', () => {
    const perCall = estimateCost(104, { leftToday: 900, reserve: 200, billing: 'call' })
    expect(describeCost(perCall)).toBe('104 calls (11.6 % of the 900 left today)')
    const infura = estimateCost(31, { leftToday: 900, reserve: 200, billing: 'call-plus-batch' })
    expect(describeCost(infura)).toBe('31 units (3.5 % of the 900 left today)')
    expect(describeCost(estimateCost(1, { leftToday: 9, reserve: 0, billing: 'call' }))).toBe(
      '1 call (11.2 % of the 9 left today)',
    )
  })

  it('a cost that depends on answers not known yet is a range, and the reserve is measured against its most', () => {
    const ranged = estimateCost(5, { leftToday: 220, reserve: 200, billing: 'call-plus-batch' }, 29)
    expect(ranged).toMatchObject({ requests: 5, requestsMax: 29, percentOfLeft: 13.2, crossesReserve: true })
    expect(describeCost(ranged)).toBe('5–29 units (up to 13.2 % of the 220 left today)')
    expect(estimateCost(5, { leftToday: 220, reserve: 200 }).crossesReserve).toBe(false)
    expect(estimateCost(5, { leftToday: 20, reserve: 0 }, 29)).toMatchObject({ exceedsLeft: true })
    // A most not above the least is no range.
    const exact = estimateCost(5, { leftToday: 900, reserve: 200 }, 5)
    expect(exact).not.toHaveProperty('requestsMax')
    expect(describeCost(exact)).toBe('5 requests (0.6 % of the 900 left today)')
  })
})

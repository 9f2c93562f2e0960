import { describe, expect, it } from 'vitest'
import { blockWindows, planGap, windowCount } from './watch-plan'

describe('planGap', () => {
  it('plans a head of 2^53 reported by a service without listing its windows', () => {
    const plan = planGap({ from: 51, to: Number.MAX_SAFE_INTEGER, cap: 10, addresses: 50, rpcUnits: (n) => n })
    expect(plan).toMatchObject({ way: 'reread', windows: [], units: 50 })
    expect(plan.otherUnits).toBe(3 * Math.ceil((Number.MAX_SAFE_INTEGER - 50) / 10))
  })

  it('lists the windows of the logs way, covering the gap once, in order', () => {
    const plan = planGap({ from: 1, to: 2500, cap: 1000, addresses: 50, rpcUnits: (n) => n })
    expect(plan.way).toBe('logs')
    expect(plan.windows).toEqual([
      { from: 1, to: 1000 },
      { from: 1001, to: 2000 },
      { from: 2001, to: 2500 },
    ])
    expect(windowCount(1, 2500, 1000)).toBe(3)
    expect([...blockWindows(5, 4, 10)]).toEqual([])
    expect([...blockWindows(5, 9, null)]).toEqual([{ from: 5, to: 9 }])
  })
})

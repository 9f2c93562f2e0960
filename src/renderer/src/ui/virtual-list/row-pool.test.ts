import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { RowPool, type PoolPlan } from './row-pool'

const keys = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => `tx${from + i}`)
/** The rows' keys in the document order of their elements. */
const documentOrder = (ks: readonly string[], plan: PoolPlan): string[] => plan.order.map((i) => ks[i]!)

describe('RowPool', () => {
  it('gives the first rows elements in reading order', () => {
    expect(new RowPool().assign(keys(0, 5))).toEqual({ slots: [0, 1, 2, 3, 4], order: [0, 1, 2, 3, 4] })
  })

  it('while scrolling, keeps each row in its element and no element moves; rows coming into view take the elements of rows gone', () => {
    const pool = new RowPool()
    pool.assign(keys(0, 5))
    // Two rows down: tx0 and tx1 are gone, tx5 and tx6 take their elements, where they stand.
    const down = pool.assign(keys(2, 7))
    expect(down.slots).toEqual([2, 3, 4, 0, 1])
    expect(documentOrder(keys(2, 7), down)).toEqual(['tx5', 'tx6', 'tx2', 'tx3', 'tx4'])
    const further = pool.assign(keys(4, 9))
    expect(further.slots).toEqual([4, 0, 1, 2, 3])
    expect(documentOrder(keys(4, 9), further)).toEqual(['tx5', 'tx6', 'tx7', 'tx8', 'tx4'])
  })

  it('at rest, moves the elements back into reading order, each keeping its row, and only then', () => {
    const pool = new RowPool()
    pool.assign(keys(0, 5))
    pool.assign(keys(2, 7))
    const rest = pool.assign(keys(2, 7), true)
    expect(rest.slots).toEqual([2, 3, 4, 0, 1])
    expect(documentOrder(keys(2, 7), rest)).toEqual(keys(2, 7))
    // The next scroll starts from that order: nothing moves, tx7 takes tx2's element where it stands.
    const next = pool.assign(keys(3, 8))
    expect(next.slots).toEqual([3, 4, 0, 1, 2])
    expect(documentOrder(keys(3, 8), next)).toEqual(['tx7', 'tx3', 'tx4', 'tx5', 'tx6'])
  })

  it('adds elements at the end when more rows are rendered, drops spare ones, and forgets everything on clear', () => {
    const pool = new RowPool()
    pool.assign(keys(0, 3))
    const more = pool.assign(keys(1, 6))
    expect(more.slots).toEqual([1, 2, 0, 3, 4])
    expect(documentOrder(keys(1, 6), more)).toEqual(['tx3', 'tx1', 'tx2', 'tx4', 'tx5'])
    const fewer = pool.assign(keys(1, 3))
    expect(fewer.slots).toEqual([1, 2])
    pool.clear()
    expect(pool.assign(keys(10, 12)).order).toEqual([0, 1])
  })

  it('never gives two rows one element, keeps rows in their elements, and orders every rendered row once', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 25 }), { minLength: 1, maxLength: 20 }),
        fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }),
        (rounds, inOrder) => {
          const pool = new RowPool()
          let before = new Map<string, number>()
          let beforeOrder: number[] = []
          rounds.forEach((round, r) => {
            const ks = round.map((n) => `k${n}`)
            const plan = pool.assign(ks, inOrder[r])
            expect(new Set(plan.slots).size).toBe(ks.length)
            expect([...plan.order].sort((a, b) => a - b)).toEqual(ks.map((_, i) => i))
            const now = new Map<string, number>()
            ks.forEach((k, i) => {
              if (!now.has(k)) now.set(k, plan.slots[i]!)
            })
            // A row rendered before and now keeps its element, at rest too.
            for (const [k, s] of now) if (before.has(k)) expect(s).toBe(before.get(k))
            const docSlots = plan.order.map((i) => plan.slots[i]!)
            if (inOrder[r]) expect(plan.order).toEqual(ks.map((_, i) => i))
            // While scrolling, elements that were there keep their relative order (none moves).
            else {
              const stayed = docSlots.filter((s) => beforeOrder.includes(s))
              expect(stayed).toEqual(beforeOrder.filter((s) => stayed.includes(s)))
            }
            before = now
            beforeOrder = docSlots
          })
        },
      ),
    )
  })
})

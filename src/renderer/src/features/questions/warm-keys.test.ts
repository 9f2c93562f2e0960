import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeTx } from '@shared/testing/service-samples'
import { keysOf } from './address-filters'
import { warmKeys } from './warm-keys'

describe('warming the filter keys', () => {
  afterEach(() => vi.useRealTimers())

  it('works out every key a chunk at a time, from where it is told, and stops when asked', () => {
    vi.useFakeTimers()
    const me = `0x${'1'.repeat(40)}`
    const items = Array.from({ length: 4500 }, (_, i) => makeTx(i))
    const stop = warmKeys(items, me, 100)
    vi.advanceTimersToNextTimer()
    expect(stop()).toBe(2100)
    const all = warmKeys(items, me)
    vi.runAllTimers()
    expect(all()).toBe(4500)
    // The warmed keys are the ones a filter reads: the same object, not worked out again.
    const k = keysOf(items[4499]!, me)
    expect(keysOf(items[4499]!, me)).toBe(k)
  })
})

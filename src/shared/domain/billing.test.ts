import { describe, expect, it } from 'vitest'
import { countUnits, requestUnits, unitsFor, unitsForCalls } from './billing'

describe('billing units', () => {
  it('counts a batch as one request, N calls, or N calls plus one', () => {
    expect(unitsFor('request', [104])).toBe(1)
    expect(unitsFor('call', [104])).toBe(104)
    // Infura: 30 calls in a batch cost 31.
    expect(unitsFor('call-plus-batch', [30])).toBe(31)
  })

  it('charges a single call and a data API request one unit in every mode', () => {
    for (const mode of ['request', 'call', 'call-plus-batch'] as const) {
      expect(requestUnits(mode, 1)).toBe(1)
      expect(unitsFor(mode, [{ calls: 1, batch: false }, 1])).toBe(2)
    }
    // A batch that carries one call is still a batch where the service charges for batches.
    expect(requestUnits('call-plus-batch', 1, true)).toBe(2)
  })

  it('prices calls in chunks of the batch size the endpoint takes', () => {
    expect(unitsForCalls('request', 104, 100)).toBe(2)
    expect(unitsForCalls('request', 104, 1)).toBe(104)
    expect(unitsForCalls('call', 104, 50)).toBe(104)
    expect(unitsForCalls('call-plus-batch', 104, 50)).toBe(107)
    expect(unitsForCalls('call-plus-batch', 101, 50)).toBe(51 + 51 + 1)
    expect(unitsForCalls('call-plus-batch', 0, 50)).toBe(0)
  })

  it('names the unit as the profile counts it', () => {
    expect(countUnits('request', 2)).toBe('2 requests')
    expect(countUnits('call', 104)).toBe('104 calls')
    expect(countUnits('call-plus-batch', 1)).toBe('1 unit')
  })
})

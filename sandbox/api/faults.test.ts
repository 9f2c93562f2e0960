import { describe, expect, it } from 'vitest'
import { faultsInputSchema, FaultSwitch } from './faults'

describe('FaultSwitch', () => {
  it('does nothing until set', () => {
    expect(new FaultSwitch().decide('balance')).toBeNull()
  })

  it('selects every matching request without error_rate and only the matching endpoint', () => {
    const f = new FaultSwitch()
    f.set({ mode: 'html', match: 'rpc' })
    expect(f.decide('balance')).toBeNull()
    expect(f.decide('rpc')).toEqual({ latencyMs: 0, mode: 'html' })
    expect(f.decide('rpc')).toEqual({ latencyMs: 0, mode: 'html' })
  })

  it('spreads error_rate evenly and deterministically', () => {
    const f = new FaultSwitch()
    f.set({ mode: 'status500', error_rate: 0.25 })
    const picks = Array.from({ length: 12 }, () => f.decide('transactions') !== null)
    expect(picks.filter(Boolean)).toHaveLength(3)
    expect(picks).toEqual([false, false, false, true, false, false, false, true, false, false, false, true])
  })

  it('clears itself after `times` selected requests', () => {
    const f = new FaultSwitch()
    f.set({ mode: 'drop', times: 2 })
    expect(f.decide('rpc')?.mode).toBe('drop')
    expect(f.current.times).toBe(1)
    expect(f.decide('balance')?.mode).toBe('drop')
    expect(f.decide('rpc')).toBeNull()
    expect(f.current).toMatchObject({ mode: null, times: null })
  })

  it('applies latency alone when no mode is set', () => {
    const f = new FaultSwitch()
    f.set({ latency_ms: 250 })
    expect(f.decide('balance')).toEqual({ latencyMs: 250, mode: null })
  })

  it('rejects unknown modes and fields', () => {
    expect(faultsInputSchema.safeParse({ mode: 'explode' }).success).toBe(false)
    expect(faultsInputSchema.safeParse({ error_rate: 2 }).success).toBe(false)
    expect(faultsInputSchema.safeParse({ latency: 5 }).success).toBe(false)
  })
})

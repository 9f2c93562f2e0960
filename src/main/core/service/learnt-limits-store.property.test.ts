import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LearntLimitsStore } from './learnt-limits-store'

/**
 * Whatever the clients learn and the profiles forget, valid or not (a network name longer than
 * the file keeps, a batch size out of range), memory and the file agree once each save has
 * settled, and the file loads back equal: a refused save changes nothing.
 */
const PROFILES = ['p', 'q']
const NETWORKS = ['alpha', 'beta', 'n'.repeat(300)]
const RPC = 'http://127.0.0.1:1/rpc'
const op = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('batch' as const),
      profile: fc.constantFrom(...PROFILES),
      network: fc.constantFrom(...NETWORKS),
      sizes: fc.record({
        limit: fc.integer({ min: 0, max: 2000 }),
        worked: fc.integer({ min: 0, max: 100 }),
        refused: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: null }),
        probeAt: fc.integer({ min: 0, max: 1e12 }),
      }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('cap' as const),
      profile: fc.constantFrom(...PROFILES),
      network: fc.constantFrom(...NETWORKS),
      cap: fc.integer({ min: 0, max: 1e6 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('forget' as const), profile: fc.constantFrom(...PROFILES) }) },
)

/** What each profile's memory answers, per network. */
function view(store: LearntLimitsStore): unknown {
  return PROFILES.map((p) => {
    const m = store.forProfile(p, () => RPC)
    return NETWORKS.map((n) => [m.batches.load(n), m.logCaps.load(n)])
  })
}

describe('LearntLimitsStore property', () => {
  it('whatever is learnt or forgotten, valid or refused, memory and the file agree after each save, and load back equal', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 20 }), async (ops) => {
        const dir = mkdtempSync(join(tmpdir(), 'learnt-prop-'))
        try {
          const store = new LearntLimitsStore(dir, { now: () => 0 })
          for (const o of ops) {
            if (o.op === 'forget') store.forget(o.profile)
            else {
              const m = store.forProfile(o.profile, () => RPC)
              if (o.op === 'batch') m.batches.save(o.network, o.sizes)
              else m.logCaps.save(o.network, o.cap)
            }
            await store.settled()
            expect(view(new LearntLimitsStore(dir, { now: () => 0 }))).toEqual(view(store))
          }
          expect(new LearntLimitsStore(dir).notice).toBeNull()
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      }),
      { numRuns: 60 },
    )
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AppError } from '../util/app-error'
import type { ApprovalCandidate, GrantMark } from './approval-fold'
import { ScanStore, type ScanProgress } from './scan-store'

/**
 * Whatever scans are saved or dropped, valid or not (a mark's hash longer than the file keeps,
 * a negative block, an address in capitals), memory and the file agree after each step, and the
 * file loads back equal: a refused scan changes nothing, and the next one is saved.
 */
const KEYS = ['p|alpha|0x01', 'p|alpha|0x02', 'p|beta|0x01']
const address = fc.integer({ min: 1, max: 3 }).map((i) => `0x${i.toString(16).padStart(40, '0')}`)
const hash = fc.oneof(
  { weight: 6, arbitrary: fc.stringMatching(/^0x[0-9a-f]{64}$/) },
  { weight: 1, arbitrary: fc.constant(`0x${'a'.repeat(300)}`) },
)
const mark: fc.Arbitrary<GrantMark> = fc.record({
  tx: hash,
  block: fc.option(fc.integer({ min: -1, max: 1e9 }), { nil: null }),
  timestamp: fc.constant(null),
  via: fc.constant('log' as const),
})
const candidate: fc.Arbitrary<ApprovalCandidate> = fc.record({
  kind: fc.constantFrom('erc20' as const, 'operator' as const),
  token: fc.oneof({ weight: 8, arbitrary: address }, { weight: 1, arbitrary: address.map((a) => a.toUpperCase()) }),
  spender: address,
  tokenId: fc.constant(null),
  maybeNft: fc.constant(false),
  grant: fc.option(mark, { nil: null }),
  last: mark,
  clearedByOwner: fc.boolean(),
  granted: fc.option(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), { nil: null }),
  expected: fc.constant(null),
})
const progress: fc.Arbitrary<ScanProgress> = fc.record({
  scannedTo: fc.integer({ min: -1, max: 1e9 }),
  anchor: fc.option(
    fc.record({ block: fc.integer({ min: 0, max: 1e9 }), hash: fc.stringMatching(/^0x[0-9a-f]{64}$/) }),
    { nil: null },
  ),
  approvals: fc.array(candidate, { maxLength: 3 }),
  skippedLogs: fc.integer({ min: 0, max: 5 }),
})
const op = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('set' as const), key: fc.constantFrom(...KEYS), progress }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('drop' as const), key: fc.constantFrom(...KEYS) }) },
)

const all = (store: ScanStore) => KEYS.map((k) => store.get(k))

describe('ScanStore property', () => {
  it('whatever scans are saved or dropped, valid or refused, memory and the file agree after each, and load back equal', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 15 }), async (ops) => {
        const dir = mkdtempSync(join(tmpdir(), 'scans-prop-'))
        try {
          const store = new ScanStore(dir)
          for (const o of ops) {
            const before = all(store)
            try {
              if (o.op === 'set') await store.set(o.key, o.progress)
              else await store.drop(o.key)
            } catch (error) {
              if (!(error instanceof AppError)) throw error
              expect(all(store)).toEqual(before)
            }
            expect(all(new ScanStore(dir))).toEqual(all(store))
          }
          expect(new ScanStore(dir).notice).toBeNull()
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      }),
      { numRuns: 60 },
    )
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bridgeCalls } from '@shared/bridge/call-schemas'
import { labelId } from '@shared/domain/address-label'
import { addr } from '../testing/address'
import { AppError } from '../util/app-error'
import { LabelsStore } from './labels-store'

/**
 * Whatever label calls are made, as the bridge lets them through or not (texts over the limits,
 * a label changed since it was shown, an import of a file with bad rows), memory and the file
 * agree after each call, and the file loads back equal.
 */
const address = fc.integer({ min: 1, max: 5 }).map((i) => `0x${i.toString(16).padStart(40, '0')}`)
const network = fc.constantFrom('alpha', 'beta')
const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 195, maxLength: 205 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '=1+1') },
)
const op = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('set' as const),
      address,
      network,
      label: text,
      note: text,
      seenNow: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('remove' as const), address, network, seenNow: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('import' as const),
      rows: fc.array(fc.record({ address: fc.oneof(address, fc.constant('0xnot')), label: text }), {
        minLength: 1,
        maxLength: 4,
      }),
      replaceAll: fc.boolean(),
    }),
  },
)
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never

async function apply(store: LabelsStore, o: Op): Promise<void> {
  if (o.op === 'import') {
    const cell = (v: string) => `"${v.replaceAll('"', '""')}"`
    const csv = ['address,label', ...o.rows.map((r) => `${cell(r.address)},${cell(r.label)}`)].join('\n')

    const ids = o.replaceAll ? o.rows.map((r) => labelId({ address: r.address.toLowerCase(), network: 'alpha' })) : []
    await store.import(csv, 'alpha', ids)
    return
  }
  const shown = store.list().find((l) => l.address === o.address && l.network === o.network)
  // Seen now: what the store holds; else what the user saw before it changed (nothing).
  const seen = o.seenNow && shown ? { label: shown.label, note: shown.note } : null
  if (o.op === 'remove') {
    await store.remove(addr(o.address), o.network, seen)
    return
  }
  const p = bridgeCalls['labels.set'].safeParse({
    address: o.address,
    network: o.network,
    label: o.label,
    note: o.note,
    seen,
  })
  if (p.success) await store.set(addr(p.data.address), p.data.network, { label: p.data.label, note: p.data.note }, seen)
}

describe('LabelsStore property', () => {
  it('whatever calls are made, valid or refused, memory and the file agree after each, and the file loads back equal', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 20 }), async (ops) => {
        const dir = mkdtempSync(join(tmpdir(), 'labels-prop-'))
        try {
          const store = new LabelsStore({ dataDir: dir })
          for (const o of ops) {
            const before = store.list()
            try {
              await apply(store, o)
            } catch (error) {
              if (!(error instanceof AppError)) throw error
              expect(store.list()).toEqual(before)
            }
            expect(new LabelsStore({ dataDir: dir }).list()).toEqual(store.list())
          }
          expect(new LabelsStore({ dataDir: dir }).notice).toBeNull()
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      }),
      { numRuns: 60 },
    )
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bridgeCalls } from '@shared/bridge/call-schemas'
import { AppError } from '../util/app-error'
import { CaseStore } from './case-store'
import { addr } from '../testing/address'

/**
 * Whatever sequence of case calls the bridge lets through (inputs parsed by its own schemas),
 * the file the store writes loads back equal to what the store answers.
 */
const text = (limit: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: Math.min(limit, 30) }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
    { weight: 1, arbitrary: fc.string({ minLength: limit - 2, maxLength: limit + 3 }) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '=1', ' x ') },
  )
const address = fc.oneof(
  fc.integer({ min: 1, max: 4 }).map((i) => `0x${i.toString(16).padStart(40, '0')}`),
  fc.stringMatching(/^0x[0-9a-f]{40}$/),
)
const network = fc.constantFrom('alpha', 'beta', 'Bad Net')
const node = fc.record({ address, network })
const iso = fc.oneof(
  fc.constant(null),
  fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constant('yesterday'),
)
const graph = fc.record({
  version: fc.constantFrom(1, 2),
  expanded: fc.array(node, { maxLength: 4 }),
  hopLimit: fc.integer({ min: 0, max: 8 }),
  filters: fc.record({
    asset: fc.option(fc.constantFrom('native', `0x${'a'.repeat(40)}`), { nil: null }),
    minAmount: fc.option(
      fc.bigInt({ min: -1n, max: 10n ** 80n }).map((n) => n.toString()),
      { nil: null },
    ),
    from: iso,
    to: iso,
    direction: fc.constantFrom('in', 'out', 'both', 'sideways'),
  }),
  selected: fc.option(node, { nil: null }),
})
const pick = fc.nat(10)
const op = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant('create'), name: text(80), first: fc.option(node, { nil: undefined }) }),
  },
  fc.record({ op: fc.constant('rename'), c: pick, name: text(80) }),
  fc.record({ op: fc.constant('delete'), c: pick }),
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('addAddress'),
      c: pick,
      a: node,
      label: fc.option(text(80), { nil: undefined }),
      note: fc.option(text(2000), { nil: undefined }),
    }),
  },
  fc.record({
    op: fc.constant('updateAddress'),
    c: pick,
    a: pick,
    label: fc.option(text(80), { nil: undefined }),
    note: fc.option(text(2000), { nil: undefined }),
  }),
  fc.record({ op: fc.constant('removeAddress'), c: pick, a: pick }),
  fc.record({ op: fc.constant('setNotes'), c: pick, notes: text(20_000) }),
  { weight: 2, arbitrary: fc.record({ op: fc.constant('setGraph'), c: pick, graph }) },
  fc.record({ op: fc.constant('exportImport'), c: pick }),
)
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never

/** One call as the bridge makes it: its schema parses the input first; a refused input is skipped. */
async function apply(store: CaseStore, o: Op): Promise<unknown> {
  const cases = store.list()
  const c = 'c' in o ? cases[o.c % Math.max(1, cases.length)] : undefined
  const id = c?.id ?? 'none'
  const a = 'a' in o && typeof o.a === 'number' ? c?.addresses[o.a % Math.max(1, c.addresses.length)] : undefined
  const ref = { address: addr(a?.address ?? `0x${'0'.repeat(40)}`), network: a?.network ?? 'alpha' }
  const call = async <K extends keyof typeof bridgeCalls>(name: K, input: unknown, run: (p: never) => unknown) => {
    const p = bridgeCalls[name].safeParse(input)
    if (p.success) await run(p.data as never)
  }
  switch (o.op) {
    case 'create':
      return call('cases.create', { name: o.name, first: o.first }, (p: { name: string; first?: typeof ref }) =>
        store.create(p.name, p.first),
      )
    case 'rename':
      return call('cases.rename', { id, name: o.name }, (p: { id: string; name: string }) => store.rename(p.id, p.name))
    case 'delete':
      return store.delete(id)
    case 'addAddress':
      return call('cases.addAddress', { id, ...o.a, label: o.label, note: o.note }, (p: typeof ref & { id: string }) =>
        store.addAddress(p.id, p),
      )
    case 'updateAddress':
      return call(
        'cases.updateAddress',
        { id, ...ref, label: o.label, note: o.note },
        (p: typeof ref & { id: string; label?: string; note?: string }) =>
          store.updateAddress(p.id, p, { label: p.label, note: p.note }),
      )
    case 'removeAddress':
      return store.removeAddress(id, ref)
    case 'setNotes':
      return call('cases.setNotes', { id, notes: o.notes }, (p: { id: string; notes: string }) =>
        store.setNotes(p.id, p.notes),
      )
    case 'setGraph':
      return call('cases.setGraph', { id, graph: o.graph }, (p: { id: string; graph: never }) =>
        store.setGraph(p.id, p.graph),
      )
    case 'exportImport':
      return store.import(store.export(id).text)
  }
}

describe('CaseStore property', () => {
  it('whatever calls are made, valid or refused, memory and the file agree after each, and the file loads back equal', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 25 }), async (ops) => {
        const dir = mkdtempSync(join(tmpdir(), 'cases-prop-'))
        try {
          const store = new CaseStore({ dataDir: dir })
          for (const o of ops) {
            try {
              await apply(store, o)
            } catch (error) {
              // A refusal is an answer (a typed error), never a crash.
              if (!(error instanceof AppError)) throw error
            }
            expect(new CaseStore({ dataDir: dir }).list()).toEqual(store.list())
          }
          const again = new CaseStore({ dataDir: dir })
          expect(again.notice).toBeNull()
          expect(again.list()).toEqual(store.list())
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      }),
      { numRuns: 60 },
    )
  })
})

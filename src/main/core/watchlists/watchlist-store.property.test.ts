import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bridgeCalls } from '@shared/bridge/call-schemas'
import { formatCsv } from '@shared/csv'
import { AppError } from '../util/app-error'
import { WatchlistStore } from './watchlist-store'

/**
 * Whatever sequence of calls the bridge lets through (inputs parsed by its own schemas), the
 * file the store writes loads back equal to what the store answers: no change can leave a
 * file that the next start would call damaged.
 */
/** Mostly within `limit`, sometimes past it (the bridge or the store must refuse those). */
const text = (limit: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: Math.min(limit, 30) }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: limit }) },
    { weight: 1, arbitrary: fc.string({ minLength: limit - 2, maxLength: limit + 3 }) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '=1', ' x ', '\t-2') },
  )
const address = fc.oneof(
  fc.integer({ min: 1, max: 6 }).map((i) => `0x${i.toString(16).padStart(40, '0')}`),
  fc.stringMatching(/^0x[0-9a-f]{40}$/),
)
const network = fc.oneof(fc.constantFrom('alpha', 'beta', 'gamma'), fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/))
const pick = fc.nat(20)
const entry = fc.record({
  address,
  network,
  label: text(80),
  note: text(2000),
  tags: fc.oneof(fc.array(text(40), { maxLength: 3 }), fc.array(text(40), { maxLength: 22 })),
  alsoNetworks: fc.option(fc.array(network, { maxLength: 9 }), { nil: undefined }),
})
const op = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('create'), name: text(60) }) },
  fc.record({ op: fc.constant('rename'), list: pick, name: text(60) }),
  fc.record({ op: fc.constant('delete'), list: pick }),
  { weight: 4, arbitrary: fc.record({ op: fc.constant('addEntry'), list: pick, entry }) },
  fc.record({
    op: fc.constant('updateEntry'),
    list: pick,
    entry: pick,
    patch: entry.map(({ label, note, tags, alsoNetworks }) => ({ label, note, tags, alsoNetworks })),
  }),
  fc.record({ op: fc.constant('removeEntry'), list: pick, entry: pick }),
  fc.record({ op: fc.constant('moveEntry'), list: pick, to: pick, entry: pick }),
  fc.record({
    op: fc.constant('import'),
    rows: fc.array(fc.tuple(text(60), address, network, text(80), text(200), text(40)), { maxLength: 8 }),
    listName: fc.option(text(60), { nil: undefined }),
  }),
)
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never

/** One call as the bridge makes it: its schema parses the input first; a refused input is skipped. */
async function apply(store: WatchlistStore, o: Op): Promise<void> {
  const lists = store.list()
  const list = lists[o.op === 'create' || o.op === 'import' ? 0 : o.list % Math.max(1, lists.length)]
  const entryId =
    'entry' in o && typeof o.entry === 'number'
      ? list?.entries[o.entry % Math.max(1, list.entries.length)]?.id
      : undefined
  switch (o.op) {
    case 'create': {
      const p = bridgeCalls['watchlists.create'].safeParse({ name: o.name })
      if (p.success) await store.create(p.data.name)
      return
    }
    case 'rename': {
      const p = bridgeCalls['watchlists.rename'].safeParse({ id: list?.id ?? 'none', name: o.name })
      if (p.success) await store.rename(p.data.id, p.data.name)
      return
    }
    case 'delete':
      await store.delete(list?.id ?? 'none')
      return
    case 'addEntry': {
      const p = bridgeCalls['watchlists.addEntry'].safeParse({ listId: list?.id ?? 'none', entry: o.entry })
      if (p.success) await store.addEntry(p.data.listId, p.data.entry)
      return
    }
    case 'updateEntry': {
      const p = bridgeCalls['watchlists.updateEntry'].safeParse({
        listId: list?.id ?? 'none',
        entryId: entryId ?? 'none',
        patch: o.patch,
      })
      if (p.success) await store.updateEntry(p.data.listId, p.data.entryId, p.data.patch)
      return
    }
    case 'removeEntry':
      await store.removeEntry(list?.id ?? 'none', entryId ?? 'none')
      return
    case 'moveEntry':
      await store.moveEntry(
        list?.id ?? 'none',
        lists[o.to % Math.max(1, lists.length)]?.id ?? 'none',
        entryId ?? 'none',
      )
      return
    case 'import': {
      const csv = formatCsv([['list', 'address', 'network', 'label', 'note', 'tags'], ...o.rows])
      const p = bridgeCalls['watchlists.import'].safeParse({ format: 'csv', text: csv, listName: o.listName })
      if (p.success) await store.import(p.data.format, p.data.text, p.data.listName)
    }
  }
}

describe('WatchlistStore property', () => {
  it('whatever calls are made, valid or refused, memory and the file agree after each, and the file loads back equal', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 25 }), async (ops) => {
        const dir = mkdtempSync(join(tmpdir(), 'watchlists-prop-'))
        try {
          const store = new WatchlistStore({ dataDir: dir })
          for (const o of ops) {
            try {
              await apply(store, o)
            } catch (error) {
              // A refusal is an answer (a typed error), never a crash.
              if (!(error instanceof AppError)) throw error
            }
            expect(new WatchlistStore({ dataDir: dir }).list()).toEqual(store.list())
          }
          const again = new WatchlistStore({ dataDir: dir })
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

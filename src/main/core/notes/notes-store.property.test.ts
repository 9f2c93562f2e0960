import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bridgeCalls } from '@shared/bridge/call-schemas'
import { AppError } from '../util/app-error'
import { notesFromImport } from './notes-io'
import { NotesStore } from './notes-store'

/**
 * Whatever notes the bridge lets through (`notes.set`, and the notes an import carries), the
 * file the store writes loads back equal to what it answers.
 */
const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 2000 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 1995, maxLength: 2005 }) },
  { weight: 1, arbitrary: fc.constantFrom('', '  ', '\n', '=1') },
)
const key = fc.oneof(
  fc.integer({ min: 1, max: 4 }).map((i) => `0x${i.toString(16).padStart(40, '0')}`),
  fc.stringMatching(/^0x[0-9a-fA-F]{64}$/),
  fc.stringMatching(/^0x[0-9a-fA-F]{40}$/),
)
const note = fc.record({
  kind: fc.constantFrom('tx', 'address'),
  network: fc.oneof(fc.constantFrom('alpha', 'beta'), fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/)),
  key,
  text,
})
const op = fc.oneof(
  { weight: 4, arbitrary: note.map((n) => ({ op: 'set' as const, note: n })) },
  {
    weight: 1,
    arbitrary: fc
      .array(
        fc.record({ n: note, at: fc.integer({ min: 0, max: 4_102_444_800_000 }) }).map(({ n, at }) => ({
          ...n,
          updatedAt: new Date(at).toISOString(),
        })),
        { maxLength: 6 },
      )
      .map((notes) => ({ op: 'merge' as const, notes })),
  },
)

describe('NotesStore property', () => {
  it('whatever calls are made, valid or refused, memory and the file agree after each, and the file loads back equal', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 3, maxLength: 25 }),
        fc.integer({ min: 0, max: 4e12 }),
        async (ops, now) => {
          const dir = mkdtempSync(join(tmpdir(), 'notes-prop-'))
          try {
            const store = new NotesStore({ dataDir: dir, now: () => now })
            for (const o of ops) {
              try {
                if (o.op === 'set') {
                  const p = bridgeCalls['notes.set'].safeParse(o.note)
                  // As bridge-handlers.ts: the key is lowercased there.
                  if (p.success) await store.set({ ...p.data, key: p.data.key.toLowerCase() })
                } else {
                  await store.merge(notesFromImport(JSON.stringify({ notes: o.notes })).notes)
                }
              } catch (error) {
                if (!(error instanceof AppError)) throw error
              }
              expect(new NotesStore({ dataDir: dir }).list()).toEqual(store.list())
            }
            const again = new NotesStore({ dataDir: dir, now: () => now })
            expect(again.notice).toBeNull()
            expect(again.list()).toEqual(store.list())
          } finally {
            rmSync(dir, { recursive: true, force: true })
          }
        },
      ),
      { numRuns: 60 },
    )
  })
})

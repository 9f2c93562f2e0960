import { injectWriteFault } from '../../testing/write-faults'

/**
 * Test fixture (case-crash.test.ts): rewrites the notes of the one case in `<dataDir>` as fast
 * as it can, printing `saving N` before and `saved N` after each save, until it is killed.
 * `node writer.mjs <dataDir> external` waits for the test's SIGKILL;
 * `node writer.mjs <dataDir> <fraction>` SIGKILLs itself on its third save after writing that
 * fraction of the new file's bytes into the temp file (a crash mid-write).
 */
const [dir, mode = 'external'] = process.argv.slice(2)
if (!dir) throw new Error('usage: case-writer <dataDir> [external | <fraction>]')
const fault = mode === 'external' ? null : injectWriteFault('main-write', Number(mode))

const { CaseStore } = await import('../case-store')
const store = new CaseStore({ dataDir: dir })
if (store.notice) process.stdout.write(`notice ${store.notice}\n`)
const c = store.list()[0]
if (!c) throw new Error('the test prepares one case first')
let generation = Number(/^gen-(\d+)/.exec(c.notes)?.[1] ?? 0)
for (let saves = 0; ; saves++) {
  generation += 1
  if (saves === 2) fault?.arm()
  process.stdout.write(`saving ${generation}\n`)
  await store.setNotes(c.id, `gen-${generation} ${'n'.repeat(5000)}`)
  process.stdout.write(`saved ${generation}\n`)
}

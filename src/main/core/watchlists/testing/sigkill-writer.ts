import { injectWriteFault } from '../../testing/write-faults'

/**
 * Test fixture (watchlist-crash.test.ts): rewrites the watchlists file as fast as it can,
 * printing `saving N` before and `saved N` after each save, until it is killed.
 *
 * `node writer.mjs <dataDir> external` waits for the test's SIGKILL.
 * `node writer.mjs <dataDir> <step> <fraction>` SIGKILLs itself at one exact step of the
 * atomic write protocol of its third save (testing/write-faults.ts), e.g. `main-write 0.5`
 * after writing half of the new file's bytes.
 */
const [dir, mode = 'external', fractionText = '0.5'] = process.argv.slice(2)
if (!dir) throw new Error('usage: sigkill-writer <dataDir> [external | <step> <fraction>]')
const fault = mode === 'external' ? null : injectWriteFault(mode, Number(fractionText))

const { WatchlistStore } = await import('../watchlist-store')
const store = new WatchlistStore({ dataDir: dir })
if (store.notice) process.stdout.write(`notice ${store.notice}\n`)
const list = store.list()[0]
if (!list) throw new Error('the test prepares one list first')
let generation = Number(list.name.replace(/^gen-/, ''))
for (let saves = 0; ; saves++) {
  generation += 1
  if (saves === 2) fault?.arm()
  process.stdout.write(`saving ${generation}\n`)
  await store.rename(list.id, `gen-${generation}`)
  process.stdout.write(`saved ${generation}\n`)
}

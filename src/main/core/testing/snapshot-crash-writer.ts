/**
 * Test support for data/snapshot-store-format.test.ts: rewrites one large page without pause and
 * prints each version once it is on disk, until the test kills the process mid-write.
 */
import { transaction } from './service-fixtures'
import { SnapshotStore } from '../data/snapshot-store'

const root = process.argv[2]
if (!root) throw new Error('usage: testing-crash-writer <snapshot root>')
const store = new SnapshotStore({ root })
const items = Array.from({ length: 50 }, (_, i) => transaction(i, 1000 - i, 1))
for (let version = 1; ; version++) {
  await store.writePage(
    { profileId: 'p', network: 'alpha', address: '0x00000000000000000000000000000000000000aa', cursor: null },
    {
      fetchedAt: version,
      items: items.map((tx) => ({ ...tx, nonce: version })),
      nextCursor: null,
    },
  )
  await store.flush()
  process.stdout.write(`${version}\n`)
}

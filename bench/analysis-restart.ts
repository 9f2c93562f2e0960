/**
 * bench:analysis's `approvals_restart` line, in a process of its own: the first opening of the
 * Approvals tab of an address after a start, with nothing warm (no module run before, no code
 * compiled by the engine yet), reading the digests the store made as it wrote the pages.
 *
 *   tsx --tsconfig tsconfig.bench.json bench/analysis-restart.ts <root> <owner>
 *
 * Prints one JSON line: { ms, cpuMs, rows }.
 */
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { SnapshotStore } from '../src/main/core/data/snapshot-store'
import { approvalsDigester } from '../src/main/core/approvals/saved-digest'
import { approvalsView } from './analysis-approvals'

const [root, owner] = process.argv.slice(2)
if (!root || !owner) throw new Error('usage: analysis-restart.ts <root> <owner>')
const snapshots = new SnapshotStore({ root: join(root, 'snapshots'), digester: approvalsDigester })
// The walk of the cache's folder is the app's start (the search does it), not the tab's.
await snapshots.catalogue('p')
const run = approvalsView(snapshots, root, owner)
const t0 = performance.now()
const cpu0 = process.cpuUsage()
const rows = await run()
const cpu = process.cpuUsage(cpu0)
console.log(JSON.stringify({ ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, rows }))

/**
 * `npm run bench:analysis`: the analyst views' work, measured in Node on generated data of
 * the service's shape (no network, no browser). Prints one line:
 *
 *   analysis: txs=10000 <view>_ms=… search_ms=… cached_items=… search_ready_ms=… …
 *
 * - <view>_ms (counterparties, history, filters, transfers, question_filters,
 *   counterparties_token, transfer_rows, …): median of 7 runs (after 2 warm-ups) of the
 *   renderer's work for that view over --txs transactions of one address with 1,000
 *   counterparties; a third carry token transfers (ERC-20 with 6 and 18 decimals, ERC-721),
 *   5% failed, some self-transfers, a sixth are the address's approve calls. approvals_ms: main's
 *   Approvals tab for one address of the restart's cache (below), its pages read from the
 *   store, the state answer made up front (no provider time); approvals_cpu_ms its CPU time
 *   (main thread and thread pool). approvals_first_ms / approvals_first_cpu_ms: the first
 *   opening ever of an address, by a new service, which reads the digests the store made as it
 *   wrote the pages; approvals_restart_ms / approvals_restart_cpu_ms: the first opening of
 *   another address after a start, in a new process (bench/analysis-restart.ts), where no code
 *   has run yet; approvals_digest_bytes_per_tx: the digests' bytes on disk a transaction;
 *   approvals_undigested_ms / approvals_undigested_cpu_ms: the first opening of an address
 *   whose pages an older build wrote without digests, which reads, digests and keeps every
 *   page (once per page). The median's runs find the pages digested in memory. Target:
 *   ≤ 100 ms each.
 *   A view is one line of the `views` table.
 * - search_ms: mean time of one query on main's cached search (src/main/core/search) holding
 *   --items transactions plus balances, watch entries and notes; the queries are a hash prefix,
 *   an address prefix, a method, a token symbol, a label and note text. Target: ≤ 50 ms.
 * - cached_items: items in that index (target ≥ 100,000).
 * - search_ready_ms / search_ready_cpu_ms / search_max_block_ms: a restart over --items
 *   transactions of --addresses addresses in the snapshot store (pages of 50): from a new
 *   store and search service to the first answered query (hits with their items), in wall
 *   time, in this process's CPU time (main thread and thread pool; steadier than wall time on
 *   a shared machine), and the longest the event loop was held meanwhile. restart_items: the
 *   items that search held. Target: ≤ 1 s.
 * - bytes_per_tx: the snapshot store's bytes on disk a transaction, for those generated items;
 *   bytes_per_tx_blockscout / json_bytes_per_tx_blockscout: compressed and as JSON, for
 *   Blockscout's own items (shared/fixtures/blockscout), which repeat less. A week of a full
 *   quota (350,000) must fit in 256 MiB: ≤ 767 bytes a transaction.
 *
 * Options: --txs N (10000), --items N (100000), --addresses N (50).
 */
import { spawnSync } from 'node:child_process'
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import type { Note, Watchlist } from '@shared/bridge/contract'
import type { BalanceItem, Transaction } from '@shared/domain/service-schemas'
import { CachedSearch } from '../src/main/core/search/cached-search'
import { balancesDoc, noteDocs, transactionDoc, watchlistDocs } from '../src/main/core/search/search-docs'
import { NATIVE } from '@shared/domain/movements'
import { balanceHistory } from '../src/renderer/src/features/analysis/balance-history'
import { counterparties } from '../src/renderer/src/features/analysis/counterparties'
import { transfersOf } from '@shared/domain/transfers'
import { filterTransactions } from '../src/renderer/src/features/transactions/tx-view'
import { SnapshotStore } from '../src/main/core/data/snapshot-store'
import { readFixture } from '@shared/testing/blockscout-fixtures'
import { SearchService } from '../src/main/core/search/search-service'
import { filterByQuestions, NO_FILTERS } from '../src/renderer/src/features/questions/address-filters'
import { sortTransfers, transferRows } from '../src/renderer/src/features/questions/transfer-rows'
import { approvalsDigester } from '../src/main/core/approvals/saved-digest'
import { approvalsView } from './analysis-approvals'
import { addr, hex, makeTx, ME, TOKENS } from './analysis-data'

const { values } = parseArgs({
  options: {
    txs: { type: 'string', default: '10000' },
    items: { type: 'string', default: '100000' },
    addresses: { type: 'string', default: '50' },
  },
})
const TXS = Number(values.txs)
const ITEMS = Number(values.items)
const ADDRESSES = Number(values.addresses)

/** Median wall and CPU time (main thread and thread pool) of 7 runs after 2 warm-ups. */
async function median(run: () => unknown): Promise<{ ms: number; cpuMs: number }> {
  for (let i = 0; i < 2; i++) await run()
  const times: number[] = []
  const cpus: number[] = []
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now()
    const cpu0 = process.cpuUsage()
    await run()
    const cpu = process.cpuUsage(cpu0)
    times.push(performance.now() - t0)
    cpus.push((cpu.user + cpu.system) / 1000)
  }
  times.sort((a, b) => a - b)
  cpus.sort((a, b) => a - b)
  return { ms: times[3]!, cpuMs: cpus[3]! }
}

const txs = Array.from({ length: TXS }, (_, i) => makeTx(i, ME))
const now = [
  { key: NATIVE, symbol: 'coin', decimals: 18, value: 10n ** 24n },
  ...TOKENS.map((t) => ({
    key: t.address,
    symbol: t.symbol,
    decimals: t.decimals === null ? null : Number(t.decimals),
    value: 10n ** 20n,
  })),
]
let rows = 0
const cache = await buildCache()
/** Cached addresses whose Approvals tab the bench opens: with the digests the store made, and without. */
const OPENED = addr(0x300000)
const UNDIGESTED = addr(0x300001)
const day = new Date(Date.UTC(2026, 0, 1) - (TXS / 2) * 60_000).toISOString().slice(0, 10)
const asked = { token: TOKENS[0]!.address, party: addr(1 + 42), fromDay: '2025-01-01', toDay: day }
/**
 * The views over one address's loaded transactions, and the approvals view over one address of
 * the cache (main's work): one line per view, printed as `<name>_ms`.
 */
const views: [name: string, run: () => unknown][] = [
  ['counterparties', () => (rows = counterparties(txs, ME).rows.length)],
  ['history', () => balanceHistory(txs, ME, now, Date.UTC(2026, 0, 2))],
  ['filters', () => filterTransactions(txs, ME, { direction: 'in', type: 'coin_transfer', status: 'ok' })],
  ['transfers', () => txs.flatMap((tx) => transfersOf(tx).flows)],
  // The address page's token, counterparty and date filters at once (keys warmed, as idle time does).
  ['question_filters', () => filterByQuestions(txs, ME, asked)],
  [
    'counterparties_token',
    () => counterparties(filterByQuestions(txs, ME, { ...NO_FILTERS, token: asked.token }), ME, asked.token),
  ],
  ['transfer_rows', () => sortTransfers(transferRows(txs, ME).rows, 'amount', 'desc')],
  ['approvals', approvalsView(cache.snapshots, cache.root, OPENED)],
]
const viewTimes: string[] = []
/** One run's wall and CPU time (main thread and thread pool), as `<name>_ms` and `<name>_cpu_ms`. */
async function once(name: string, run: () => unknown): Promise<void> {
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  await run()
  const cpu = process.cpuUsage(cpu0)
  viewTimes.push(`${name}_ms=${(performance.now() - t0).toFixed(1)}`)
  viewTimes.push(`${name}_cpu_ms=${((cpu.user + cpu.system) / 1000).toFixed(1)}`)
}
for (const [name, run] of views) {
  if (name === 'approvals') {
    // The first opening ever reads the digests made as the pages were written (`run`: a new
    // service); later ones find them in memory.
    await once('approvals_first', run)
    // Another address's first opening in a new process: nothing compiled or loaded yet, as after a start of the app.
    // Node itself (no npx in between), so the deadline's kill reaches the process that runs it.
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'bench/analysis-restart.ts', cache.root, addr(0x300002)],
      {
        cwd: join(import.meta.dirname, '..'),
        env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.bench.json' },
        encoding: 'utf8',
        timeout: 120_000,
      },
    )
    if (child.status !== 0)
      throw new Error(`analysis-restart.ts ended with ${child.signal ?? `status ${child.status}`}: ${child.stderr}`)
    const restart = z.object({ ms: z.number(), cpuMs: z.number() }).safeParse(JSON.parse(child.stdout || 'null'))
    if (!restart.success) throw new Error(`analysis-restart.ts answered nothing readable: ${child.stderr}`)
    viewTimes.push(`approvals_restart_ms=${restart.data.ms.toFixed(1)}`)
    viewTimes.push(`approvals_restart_cpu_ms=${restart.data.cpuMs.toFixed(1)}`)
    const digests = diskBytes(join(cache.root, 'snapshots', 'p', 'alpha', OPENED, 'digests'))
    viewTimes.push(`approvals_digest_bytes_per_tx=${(digests / Math.ceil(ITEMS / ADDRESSES)).toFixed(0)}`)
    // A third address's pages as an older build left them: no digests.
    rmSync(join(cache.root, 'snapshots', 'p', 'alpha', UNDIGESTED, 'digests'), { recursive: true })
    const older = new SnapshotStore({ root: join(cache.root, 'snapshots'), digester: approvalsDigester })
    await older.catalogue('p')
    await once('approvals_undigested', approvalsView(older, cache.root, UNDIGESTED))
    await older.flush()
  }
  const t = await median(run)
  viewTimes.push(`${name}_ms=${t.ms.toFixed(1)}`)
  // Main's view waits on the thread pool (pages decompressed): its CPU time says what a busy machine hides.
  if (name === 'approvals') viewTimes.push(`${name}_cpu_ms=${t.cpuMs.toFixed(1)}`)
}

// Main's index, filled as SearchService fills it: one source per page of 50.
const index = new CachedSearch()
const build0 = performance.now()
const owners = 200
for (let page = 0; page * 50 < ITEMS; page++) {
  const owner = addr(0x100000 + (page % owners))
  const docs = []
  for (let j = 0; j < 50 && page * 50 + j < ITEMS; j++) {
    const doc = transactionDoc('alpha', owner, makeTx(TXS + page * 50 + j, owner))
    if (doc) docs.push(doc)
  }
  index.setSource(`page-${page}`, docs)
}
const balanceItems = (n: number): BalanceItem[] =>
  TOKENS.map((t) => ({
    token: {
      ...t,
      circulating_market_cap: null,
      exchange_rate: null,
      holders: '1',
      icon_url: null,
      total_supply: null,
      volume_24h: null,
    },
    token_id: null,
    token_instance: null,
    value: String(n),
  }))
for (let o = 0; o < owners; o++)
  index.setSource(`balances-${o}`, [balancesDoc('alpha', addr(0x100000 + o), balanceItems(o), 0)])
const lists: Watchlist[] = [
  {
    id: 'l',
    name: 'Desks',
    entries: Array.from({ length: 500 }, (_, i) => ({
      id: `e${i}`,
      address: addr(0x200000 + i),
      network: 'alpha',
      label: `Desk ${i}`,
      note: i % 10 === 0 ? 'cold storage of the fund' : '',
      tags: ['otc'],
      addedAt: '2026-01-01T00:00:00.000Z',
    })),
  },
]
index.setSource('watchlists', watchlistDocs(lists))
const notes: Note[] = Array.from({ length: 500 }, (_, i) => ({
  kind: 'tx',
  network: 'alpha',
  key: hex(-1 - (TXS + i), 64),
  text: `refund for order ${i}`,
  updatedAt: '2026-01-01T00:00:00.000Z',
}))
index.setSource('notes', noteDocs(notes))
const buildMs = performance.now() - build0

const sample = makeTx(TXS + 4321, addr(0x100000))
const queries = [
  sample.hash.slice(0, 12),
  addr(0x100000 + 17).slice(0, 10),
  'swapexact',
  'usdc',
  'desk 42',
  'refund order',
  'cold storage',
  'wrapped',
]
let hits = 0
for (const q of queries) index.search(q, 30) // warm-up
const s0 = performance.now()
const rounds = 5
for (let r = 0; r < rounds; r++) for (const q of queries) hits += index.search(q, 30).length
const searchMs = (performance.now() - s0) / (rounds * queries.length)

const scale = await restartOverCache(cache)
const fixtureBytes = await fixtureBytesPerTx()
console.log(
  `analysis: txs=${TXS} ${viewTimes.join(' ')} search_ms=${searchMs.toFixed(2)} cached_items=${index.size} search_ready_ms=${scale.readyMs.toFixed(0)} search_ready_cpu_ms=${scale.readyCpuMs.toFixed(0)} search_max_block_ms=${scale.maxBlockMs.toFixed(0)} restart_items=${scale.items} bytes_per_tx=${scale.bytesPerTx.toFixed(0)} bytes_per_tx_blockscout=${fixtureBytes.compressed.toFixed(0)} json_bytes_per_tx_blockscout=${fixtureBytes.json.toFixed(0)}`,
)
console.error(
  `(counterparties=${rows}, index built in ${Math.round(buildMs)} ms, ${hits} hits over ${rounds * queries.length} queries)`,
)
for (const q of queries) {
  const t = performance.now()
  const n = index.search(q, 30).length
  console.error(`  "${q}": ${n} hits, ${(performance.now() - t).toFixed(1)} ms`)
}

interface Cache {
  root: string
  snapshots: SnapshotStore
  items: number
}

/** --items transactions over --addresses addresses in the snapshot store (pages of 50), as a restart finds them. */
async function buildCache(): Promise<Cache> {
  const root = mkdtempSync(join(tmpdir(), 'bench-cache-'))
  const snapshots = new SnapshotStore({ root: join(root, 'snapshots'), digester: approvalsDigester })
  const perAddress = Math.ceil(ITEMS / ADDRESSES / 50)
  let n = 0
  for (let a = 0; a < ADDRESSES; a++) {
    const owner = addr(0x300000 + a)
    for (let p = 0; p < perAddress && n < ITEMS; p++) {
      const items = Array.from({ length: Math.min(50, ITEMS - n) }, (_, j) => makeTx(TXS + n + j, owner))
      n += items.length
      void snapshots.writePage(
        { profileId: 'p', network: 'alpha', address: owner, cursor: p === 0 ? null : `c${p}` },
        {
          fetchedAt: Date.now(),
          items,
          nextCursor: `c${p + 1}`,
        },
      )
    }
  }
  await snapshots.flush()
  return { root, snapshots, items: n }
}

/**
 * The cache indexed once, then a new store and search service on the same folder, timed from
 * their creation to the first answered query (hits with their items). Removes the cache after.
 */
async function restartOverCache(cache: Cache): Promise<{
  readyMs: number
  readyCpuMs: number
  maxBlockMs: number
  items: number
  bytesPerTx: number
}> {
  const { root, snapshots } = cache
  try {
    const services = {
      snapshots,
      profileId: () => 'p',
      watchlists: () => [],
      notes: () => [],
      indexDir: join(root, 'search-index'),
    }
    const first = new SearchService(services)
    await first.sync()
    await first.close()
    const bytesPerTx = diskBytes(join(root, 'snapshots')) / cache.items

    const delay = monitorEventLoopDelay({ resolution: 5 })
    delay.enable()
    const t0 = performance.now()
    const cpu0 = process.cpuUsage()
    const restarted = new SearchService({
      ...services,
      snapshots: new SnapshotStore({ root: join(root, 'snapshots') }),
    })
    const answer = await restarted.query(makeTx(TXS + 4321, addr(0x300000)).hash.slice(0, 12), 30)
    const readyMs = performance.now() - t0
    const cpu = process.cpuUsage(cpu0)
    const readyCpuMs = (cpu.user + cpu.system) / 1000
    delay.disable()
    if (answer.hits.length === 0) throw new Error('the restarted search found nothing')
    await restarted.close()
    return { readyMs, readyCpuMs, maxBlockMs: delay.max / 1e6, items: answer.cachedItems, bytesPerTx }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

function diskBytes(dir: string): number {
  let total = 0
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) total += statSync(join(e.parentPath, e.name)).size
  return total
}

/**
 * The store's bytes a transaction for Blockscout's own items (shared/fixtures/blockscout),
 * made distinct as a week of them would be: the generated items above repeat far more than
 * real ones and compress better.
 */
async function fixtureBytesPerTx(): Promise<{ compressed: number; json: number }> {
  const items = readFixture('transactions').items.map((i) => i.item as Transaction)
  const root = mkdtempSync(join(tmpdir(), 'bench-fixtures-'))
  try {
    // As the app keeps them: each page with its approvals digest.
    const store = new SnapshotStore({ root, digester: approvalsDigester })
    let n = 0
    let json = 0
    // A page holds each fixture item once (there are 20): repeats within a page would
    // compress better than distinct items do.
    for (let p = 0; p < 100; p++) {
      const txs = items.map((item) => {
        n++
        return {
          ...structuredClone(item),
          hash: hex(-1_000_000 - n, 64),
          block: 20_000_000 + n * 3,
          nonce: n,
          timestamp: new Date(Date.UTC(2026, 0, 1) + n * 13_000).toISOString(),
        }
      })
      const snapshot = { fetchedAt: 1, items: txs, nextCursor: null }
      json += JSON.stringify({ version: 1, ...snapshot }).length
      await store.writePage(
        { profileId: 'p', network: 'alpha', address: ME, cursor: p === 0 ? null : `c${p}` },
        snapshot,
      )
    }
    await store.flush()
    return { compressed: diskBytes(root) / n, json: json / n }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

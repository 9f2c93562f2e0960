import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BridgeCallInput, BridgeCallName, BridgeCallOutputs } from '@shared/bridge/contract'
import { createCore, type Core } from '../src/main/core/app-core'
import { Redactor } from '../src/main/core/util/logger'
import type { RunningSandbox, SandboxLauncher } from '../src/main/core/sandbox/sandbox-launcher'
import { admin } from '../src/main/core/testing/sandbox-harness'

/**
 * The two benchmarks against the real sandbox (its default, real limits: 50/s, burst 5,
 * 1000/day per key). Each run gets a fresh core (fresh data folder: no cache, no snapshot)
 * on the one running sandbox; the sandbox's own stats count the 429s.
 */
export interface LiveBench {
  sandbox: RunningSandbox
  log: (message: string) => void
}

/** A launcher that hands every core the sandbox that is already running (and never stops it). */
function shared(sandbox: RunningSandbox): SandboxLauncher {
  return { launch: async () => ({ info: sandbox.info, stop: async () => {}, exited: sandbox.exited }) }
}

export async function freshCore(
  sandbox: RunningSandbox,
  options: { warm?: boolean } = {},
): Promise<{
  core: Core
  call: <K extends BridgeCallName>(n: K, i: BridgeCallInput<K>) => Promise<BridgeCallOutputs[K]>
  dispose(): Promise<void>
}> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-client-'))
  const core = await createCore({
    host: 'web',
    version: 'bench',
    platform: process.platform,
    dataDir: dir,
    log: {
      info() {},
      warn: (m) => process.stderr.write(`core: ${m}\n`),
      error: (m) => process.stderr.write(`core: ${m}\n`),
    },
    redactor: new Redactor(),
    sandboxLauncher: shared(sandbox),
    keychain: () => Promise.reject(new Error('not used')),
    fetch: process.env.BENCH_TRACE
      ? async (url, init) => {
          const t0 = performance.now()
          const r = await fetch(url, init)
          const t1 = performance.now()
          trace.push(
            `${t0.toFixed(1)} ${(t1 - t0).toFixed(1)} ${r.status} ${String(url).includes('transactions') ? 'tx' : 'bal'}`,
          )
          return r
        }
      : undefined,
  })
  const call = async <K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeCallOutputs[K]> => {
    const r = await core.bridge.dispatch(name, input)
    if (!r.ok) throw new Error(`${name}: ${r.error.kind}: ${r.error.message}`)
    return r.value as BridgeCallOutputs[K]
  }
  await call('profiles.activate', { id: 'sandbox' })
  if (options.warm === false)
    return { core, call, dispose: async () => (await core.dispose(), rmSync(dir, { recursive: true, force: true })) }
  // A warm process, as an app in use is (the first calls in a process load and compile code):
  // one balances and one transactions call, not counted in the measurement.
  const network = sandbox.info.networks[0]!
  const warm = sandbox.info.demo_addresses[network]!.empty!
  await call('data.balances', { network, address: warm })
  await call('data.transactions', { network, address: warm, cursor: null })
  return { core, call, dispose: async () => (await core.dispose(), rmSync(dir, { recursive: true, force: true })) }
}

export const trace: string[] = []

/** Waits until the service's bucket is surely full again (burst / rate, plus margin). */
const refill = (): Promise<void> => new Promise((r) => setTimeout(r, 1500))

/** `n` distinct (network, address) pairs that appear in the busy address's first pages, demo addresses first. */
export async function watchlistAddresses(bench: LiveBench, n: number): Promise<{ network: string; address: string }[]> {
  const { info } = bench.sandbox
  const out = new Map<string, { network: string; address: string }>()
  for (const network of info.networks)
    for (const a of Object.values(info.demo_addresses[network] ?? {}))
      out.set(`${network}:${a.toLowerCase()}`, { network, address: a })
  // Counterparties of the demo addresses, from their first pages (and further pages of the
  // busy address), until there are enough.
  const sources = info.networks.flatMap((network) =>
    ['whale', 'holder', 'counterparty', 'deployer'].map((role) => ({
      network,
      of: info.demo_addresses[network]?.[role],
    })),
  )
  for (const { network, of } of sources) {
    let params: Record<string, unknown> | null = {}
    for (let pageNo = 0; of && params && out.size < n && pageNo < 10; pageNo++) {
      const query = new URLSearchParams({ address: of })
      for (const [k, v] of Object.entries(params)) if (k !== 'api_key' && k !== 'apikey') query.set(k, String(v))
      query.set('api_key', info.api_key)
      await new Promise((r) => setTimeout(r, 25)) // well under the service's rate
      const page = (await (await fetch(`${info.base_url}/api/v1/${network}/transactions?${query}`)).json()) as {
        items?: { from: { hash: string }; to: { hash: string } | null }[]
        next_page_params?: Record<string, unknown> | null
      }
      for (const tx of page.items ?? []) {
        for (const a of [tx.from.hash, tx.to?.hash])
          if (a) out.set(`${network}:${a.toLowerCase()}`, { network, address: a })
      }
      params = page.next_page_params ?? null
    }
  }
  // The sandbox has few accounts; top up with never-used addresses (a watchlist may hold those).
  for (let i = 1; out.size < n; i++) {
    const network = info.networks[i % info.networks.length]!
    out.set(`${network}:unused-${i}`, {
      network,
      address: `0x${createHash('sha256').update(`unused-${i}`).digest('hex').slice(0, 40)}`,
    })
  }
  if (out.size > n) bench.log(`watchlist: ${n} of ${out.size} (network, address) pairs`)
  await refill()
  return [...out.values()].slice(0, n)
}

export async function watchlistRefresh(
  bench: LiveBench,
  addresses: { network: string; address: string }[],
): Promise<string> {
  const ops = admin(bench.sandbox.info)
  const before = await ops.stats(bench.sandbox.info.api_key)
  const { call, dispose } = await freshCore(bench.sandbox)
  await refill()
  const started = performance.now()
  await Promise.all(
    addresses.flatMap(({ network, address }) => [
      call('data.balances', { network, address, priority: 'user', scope: 'watchlist' }),
      call('data.transactions', { network, address, cursor: null, priority: 'user', scope: 'watchlist' }),
    ]),
  )
  const wall = (performance.now() - started) / 1000
  if (process.env.BENCH_TRACE)
    bench.log(
      `trace (send_ms since start, latency_ms, status):\n${trace
        .map((l) => {
          const [a, ...r] = l.split(' ')
          return `${(Number(a) - started).toFixed(1)} ${r.join(' ')}`
        })
        .join('\n')}`,
    )
  const state = await call('limiter.state', {})
  await dispose()
  const after = await ops.stats(bench.sandbox.info.api_key)
  const requests = after.requests - before.requests
  if (requests !== state.usedToday)
    bench.log(`note: the client counted ${state.usedToday} requests, the sandbox saw ${requests}`)
  const target = (1.05 * (requests - 5)) / 50
  bench.log(`watchlist-refresh target: wall_s ≤ ${target.toFixed(3)} and 429s = 0`)
  return `watchlist-refresh: addresses=${addresses.length} requests=${requests} wall_s=${wall.toFixed(3)} 429s=${after.rejected_429 - before.rejected_429}`
}

export async function paging(bench: LiveBench): Promise<string> {
  const { info } = bench.sandbox
  const network = info.networks[0]!
  const address = info.demo_addresses[network]!.whale!
  const ops = admin(info)

  // The raw baseline: one fetch after another, following next_page_params by hand, paced to
  // the service's limit as any client must be (one request in flight keeps its token, so
  // 4 at once and then one per 20 ms: the same bound the core's limiter keeps; see
  // limiter.ts). Both sides do the same work under the same limit.
  await refill()
  const rawBefore = await ops.stats(info.api_key)
  let rawPages = 0
  const rawStarted = performance.now()
  let params: Record<string, unknown> | null = {}
  let tokens = 4
  let refilledAt = rawStarted
  while (params) {
    // A token bucket of 4 (the fifth slot is the request in flight), 50 per second.
    tokens = Math.min(4, tokens + (performance.now() - refilledAt) / 20)
    refilledAt = performance.now()
    if (tokens < 1) {
      await new Promise((r) => setTimeout(r, (1 - tokens) * 20))
      tokens = Math.min(4, tokens + (performance.now() - refilledAt) / 20)
      refilledAt = performance.now()
    }
    tokens -= 1
    const query = new URLSearchParams({ address })
    for (const [k, v] of Object.entries(params)) if (k !== 'api_key' && k !== 'apikey') query.set(k, String(v))
    query.set('api_key', info.api_key)
    const response = await fetch(`${info.base_url}/api/v1/${network}/transactions?${query}`)
    if (response.status !== 200) throw new Error(`raw paging: HTTP ${response.status} on page ${rawPages + 1}`)
    const body = (await response.json()) as { next_page_params: Record<string, unknown> | null }
    params = body.next_page_params
    rawPages += 1
  }
  const rawWall = (performance.now() - rawStarted) / 1000

  await refill()
  const before = await ops.stats(info.api_key)
  const { call, dispose } = await freshCore(bench.sandbox)
  trace.length = 0
  const started = performance.now()
  let cursor: string | null = null
  let pages = 0
  do {
    const page: BridgeCallOutputs['data.transactions'] = await call('data.transactions', {
      network,
      address,
      cursor,
      priority: 'user',
      scope: 'paging',
    })
    cursor = page.nextCursor
    pages += 1
  } while (cursor)
  const wall = (performance.now() - started) / 1000
  if (process.env.BENCH_TRACE)
    bench.log(
      `trace (send_ms since start, latency_ms, status):\n${trace
        .map((l) => {
          const [a, ...r] = l.split(' ')
          return `${(Number(a) - started).toFixed(1)} ${r.join(' ')}`
        })
        .join('\n')}`,
    )
  await dispose()
  const after = await ops.stats(info.api_key)
  if (pages !== rawPages) bench.log(`note: raw walked ${rawPages} pages, the client ${pages}`)
  const rawAfter = await ops.stats(info.api_key)
  bench.log(
    `paging: raw sequential pages=${rawPages} wall_s=${rawWall.toFixed(3)} 429s=${rawAfter.rejected_429 - rawBefore.rejected_429}`,
  )
  const overhead = ((wall - rawWall) / rawWall) * 100
  return `paging: pages=${pages} wall_s=${wall.toFixed(3)} overhead_pct=${overhead.toFixed(1)} 429s=${after.rejected_429 - before.rejected_429}`
}

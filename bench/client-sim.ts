import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { HeightView } from '@shared/bridge/contract'
import { createCore } from '../src/main/core/app-core'
import { Redactor } from '../src/main/core/util/logger'
import type { SandboxInfo } from '../src/main/core/sandbox/sandbox-launcher'
import { recordWatchlist, type Recorded } from './client-sim-record'
import { SimService } from './client-sim-service'
import { SimChain, SimClock } from './client-sim-time'

/**
 * The analyst's hour on a simulated clock: the core (the real code, on a SimClock) against a
 * simulated service (bench/client-sim-service.ts) that answers with data recorded from the
 * real sandbox and a simulated live chain, against a naive client that refetches every view
 * and polls every 12 s.
 *
 * The script: 5 watchlist addresses; each visit opens an address (balances and the first
 * transactions page at once), then pages 2 and 3 after 20 and 40 s; one address every 2 min;
 * the round repeats at 20 and 40 min (2 revisits); the window is visible all hour. The busy
 * address receives a new transaction every 10 min, which shifts its pages.
 *
 * height_error_p95_blocks: each second, for both networks, |shown height − true height|;
 * the 95th percentile of all samples (from the first poll on).
 */
export interface HourOptions {
  sandbox: SandboxInfo
  seed: number
  log: (m: string) => void
  /** 'slot' (default): 2 s slots with jitter within the slot, as sandbox/chain/live.ts mines. 'walk': each block 2 s × (1 ± 50%) after the last. */
  chain?: 'walk' | 'slot'
  /** How the simulated service bills, as the core is told (default per request). */
  billing?: 'request' | 'call-plus-batch'
}

const HOUR = 3600_000
const VISIT_GAP = 120_000
const ROUNDS = [0, 20 * 60_000, 40 * 60_000]

export async function analystHour(options: HourOptions): Promise<string> {
  const recorded = await recordWatchlist(options.sandbox, options.log)
  const ours = await runOurs(recorded, options)
  const naive = await runNaive(recorded, options)
  // The same hour where the service bills per call plus one per batch: the core plans in
  // that unit (no revalidation batches, height polls priced as calls), counted the same way.
  const perCall = await runOurs(recorded, { ...options, billing: 'call-plus-batch' })
  // The same hour on the other chain model, for comparison (stderr only).
  const other = options.chain === 'walk' ? 'slot' : 'walk'
  const alt = await runOurs(recorded, { ...options, chain: other })
  options.log(
    `analyst-hour: on the '${other}' chain model: requests=${alt.requests} height_error_p95_blocks=${alt.p95}`,
  )
  options.log(
    `analyst-hour: ours: ${JSON.stringify(ours.byKind)}; naive: ${JSON.stringify(naive.byKind)}; naive height_error_p95_blocks=${naive.p95}`,
  )
  const ratio = ours.requests / naive.requests
  const unitRatio = perCall.units / naive.units
  return [
    `analyst-hour: requests=${ours.requests} naive_requests=${naive.requests} ratio=${ratio.toFixed(3)} height_error_p95_blocks=${ours.p95}`,
    `analyst-hour: billing=per-call+1 units=${perCall.units} naive_units=${naive.units} ratio=${unitRatio.toFixed(3)} height_error_p95_blocks=${perCall.p95}`,
  ].join('\n')
}

function p95(errors: number[]): number {
  const sorted = [...errors].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length * 0.95)] ?? 0
}

async function runOurs(
  recorded: Recorded,
  options: HourOptions,
): Promise<{ requests: number; units: number; p95: number; byKind: Record<string, number> }> {
  const clock = new SimClock(Date.UTC(2030, 0, 7, 9))
  const chains = new Map(
    recorded.networks.map((n, i) => [
      n,
      new SimChain(clock.now(), recorded.heads[n]!, options.seed * 10 + i, options.chain ?? 'slot'),
    ]),
  )
  const service = new SimService(clock, chains, recorded)
  // https: the core sends a key over plain http only to loopback (the fetch here is simulated).
  const info: SandboxInfo = {
    base_url: 'https://sim.invalid',
    rpc_url: 'https://sim.invalid/rpc',
    networks: recorded.networks,
    api_key: recorded.key,
    demo_addresses: {},
    billing: options.billing ?? 'request',
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-hour-'))
  const core = await createCore({
    host: 'web',
    version: 'bench',
    platform: process.platform,
    dataDir: dir,
    log: { info() {}, warn: (m) => options.log(`core: ${m}`), error: (m) => options.log(`core: ${m}`) },
    redactor: new Redactor(),
    clock,
    fetch: service.fetch,
    sandboxLauncher: { launch: async () => ({ info, stop: async () => {}, exited: new Promise(() => {}) }) },
    keychain: () => Promise.reject(new Error('not used')),
  })
  const dispatch = async (name: string, input: unknown): Promise<unknown> => {
    const r = await core.bridge.dispatch(name, input)
    if (!r.ok) throw new Error(`${name}: ${r.error.kind}: ${r.error.message}`)
    return r.value
  }
  const failures: string[] = []
  const run = (p: Promise<unknown>): void => void p.catch((e: unknown) => failures.push(String(e)))
  await dispatch('profiles.activate', { id: 'sandbox' })

  const start = clock.now()
  core.setVisible(true)
  for (const round of ROUNDS) {
    recorded.addresses.forEach(({ network, address }, i) => {
      const at = start + round + i * VISIT_GAP
      const scope = `visit-${round}-${i}`
      clock.setTimeout(() => {
        run(dispatch('data.balances', { network, address, scope }))
        const page1 = dispatch('data.transactions', { network, address, cursor: null, scope }) as Promise<{
          nextCursor: string | null
          items: { hash: string }[]
        }>
        // Economy must not cost correctness: a first page shown from the cache (revalidated or
        // not) must still start with the address's newest transaction.
        run(
          page1.then((p) => {
            const newest = service.newestHash(network, address)
            if (p.items[0]?.hash !== newest)
              failures.push(`${network} ${address}: first page shown without its newest transaction ${newest}`)
          }),
        )
        clock.setTimeout(() => {
          run(
            page1.then(async (p1) => {
              if (!p1.nextCursor) return
              const p2 = (await dispatch('data.transactions', { network, address, cursor: p1.nextCursor, scope })) as {
                nextCursor: string | null
              }
              await new Promise<void>((r) => clock.setTimeout(r, 20_000))
              if (p2.nextCursor) await dispatch('data.transactions', { network, address, cursor: p2.nextCursor, scope })
            }),
          )
        }, 20_000)
      }, at - clock.now())
    })
  }
  const errors: number[] = []
  const sample = async (): Promise<void> => {
    const views = (await dispatch('height.get', {})) as HeightView[]
    for (const v of views) {
      if (v.height === null) continue
      errors.push(Math.abs(Number(v.height) - chains.get(v.network)!.heightAt(clock.now())))
    }
  }
  for (let t = start + 1000; t <= start + HOUR; t += 1000) {
    await clock.runUntil(t)
    await sample()
  }
  core.setVisible(false)
  await core.dispose()
  rmSync(dir, { recursive: true, force: true })
  if (failures.length) throw new Error(`the scripted hour failed: ${failures.slice(0, 3).join('; ')}`)
  return { requests: service.requests, units: service.units, p95: p95(errors), byKind: service.byKind }
}

/** The naive client: every view fetched again, height and gas polled every 12 s, no extrapolation. */
async function runNaive(
  recorded: Recorded,
  options: HourOptions,
): Promise<{ requests: number; units: number; p95: number; byKind: Record<string, number> }> {
  const clock = new SimClock(Date.UTC(2030, 0, 7, 9))
  const chains = new Map(
    recorded.networks.map((n, i) => [
      n,
      new SimChain(clock.now(), recorded.heads[n]!, options.seed * 10 + i, options.chain ?? 'slot'),
    ]),
  )
  const service = new SimService(clock, chains, recorded)
  const get = async (url: string, init?: RequestInit): Promise<Record<string, unknown>> =>
    (await (await service.fetch(url, init)).json()) as Record<string, unknown>
  const base = `http://sim.invalid/api/v1`
  const key = recorded.key
  const shown = new Map<string, number>()
  const start = clock.now()
  const poll = (network: string): void => {
    void get(`http://sim.invalid/rpc/${network}/${key}`, {
      method: 'POST',
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'eth_gasPrice', params: [] },
      ]),
    }).then((r) => {
      const list = r as unknown as { id: number; result: string }[]
      shown.set(network, Number(BigInt(list.find((x) => x.id === 1)!.result)))
    })
    if (clock.now() + 12_000 <= start + HOUR) clock.setTimeout(() => poll(network), 12_000)
  }
  for (const n of recorded.networks) poll(n)
  for (const round of ROUNDS) {
    recorded.addresses.forEach(({ network, address }, i) => {
      clock.setTimeout(
        async () => {
          void get(`${base}/${network}/balance?address=${address}&api_key=${key}`)
          let params: Record<string, unknown> | null = {}
          for (let page = 0; page < 3 && params; page++) {
            if (page > 0) await new Promise<void>((r) => clock.setTimeout(r, 20_000))
            const q = new URLSearchParams({ address })
            for (const [k, v] of Object.entries(params)) if (k !== 'api_key' && k !== 'apikey') q.set(k, String(v))
            q.set('api_key', key)
            params = (await get(`${base}/${network}/transactions?${q}`)).next_page_params as Record<
              string,
              unknown
            > | null
          }
        },
        start + round + i * VISIT_GAP - clock.now(),
      )
    })
  }
  const errors: number[] = []
  for (let t = start + 1000; t <= start + HOUR; t += 1000) {
    await clock.runUntil(t)
    for (const [network, h] of shown) errors.push(Math.abs(h - chains.get(network)!.heightAt(clock.now())))
  }
  return { requests: service.requests, units: service.units, p95: p95(errors), byKind: service.byKind }
}

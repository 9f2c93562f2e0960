import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { WatchCheckResult } from '@shared/bridge/contract'
import { createCore } from '../src/main/core/app-core'
import type { SandboxInfo } from '../src/main/core/sandbox/sandbox-launcher'
import type { RpcCallSpec } from '../src/main/core/service/service-types'
import { FakeChain, type Movement } from '../src/main/core/testing/fake-chain'
import { Redactor } from '../src/main/core/util/logger'
import { makeTx, party } from '@shared/testing/service-samples'

/**
 * A week away, through the real core (service client, limiter, transport, watch check) over a
 * simulated provider (src/main/core/testing/fake-chain.ts behind a fetch): 300,000 blocks
 * (a week of 2-second blocks) since the last check, a `max block range 1000` log cap, batches
 * capped at 50 (`-32600 batch too large`), billing per call plus one per batch (Infura's way),
 * 50 watched addresses of which 5 received coin or tokens during the week. The real sandbox
 * cannot play the gap: anvil (1.7.1) has no way to move its block number but to mine every
 * block (`anvil_mine` loops; no set-block-number method), and mining slows as the chain grows:
 * 2,000 empty blocks took 1.4-2.1 s on a fresh anvil, yet 30,000 took about 9 minutes here.
 * client-week-real.ts plays the same week on the real sandbox, scaled to the same number of
 * log windows (a smaller cap over fewer blocks).
 *
 *   week-away: blocks=300000 log_cap=1000 addresses=50 estimate=E units=U marked=M/N naive_log_units=L
 *
 * E: what watch.estimate said before the check ran; U: what the provider billed for the check;
 * marked: changed addresses the check marked, of those that changed; L: what scanning the week
 * window by window (3 filters × 300 windows) would have cost. Targets: U ≤ 60, M = N.
 */
const NETWORK = 'alpha'
const GAP = 300_000
const CAP = 1000
const BATCH_CAP = 50

/** The 50 watched addresses: never used on any chain, so only the week's own movements change them. */
export const weekAddresses = (): string[] =>
  Array.from({ length: 50 }, (_, i) => `0x${createHash('sha256').update(`week-${i}`).digest('hex').slice(0, 40)}`)

/** What the five changed addresses receive, the i-th at `movedAt(i, gap)`: the gap's start, quarters and end. */
export const WEEK_KINDS: readonly Movement['kind'][] = ['coin', 'erc20', 'erc721', 'erc1155', 'coin']

/** The i-th movement's block, counted from the last checked block (1 = the gap's first block). */
export const movedAt = (i: number, gap: number): number => 1 + Math.floor((i * (gap - 1)) / (WEEK_KINDS.length - 1))

/** The i-th changed address: every ninth of the list. */
export const changedAddress = (addresses: readonly string[], i: number): string => addresses[i * 9]!

export async function weekAway(log: (m: string) => void): Promise<string> {
  const chain = new FakeChain(20_000, CAP)
  const outsider = `0x${'e'.repeat(40)}`
  const reply = (id: unknown, c: RpcCallSpec): unknown => {
    const item = chain.answer(c)
    return item.ok
      ? { jsonrpc: '2.0', id, result: item.result }
      : { jsonrpc: '2.0', id, error: { code: item.code, message: item.message } }
  }
  const json = (body: unknown): Response =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input))
    const parts = url.pathname.split('/').filter(Boolean)
    if (parts[0] === 'rpc') {
      const body = JSON.parse(String(init?.body)) as
        { id: unknown; method: string; params: unknown[] } | { id: unknown; method: string; params: unknown[] }[]
      if (!Array.isArray(body)) {
        chain.bill(1)
        return json(reply(body.id, body))
      }
      if (body.length > BATCH_CAP) {
        chain.bill(1)
        return json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large' } })
      }
      chain.bill(body.length + 1)
      return json(body.map((c) => reply(c.id, c)))
    }
    chain.bill(1)
    const address = (url.searchParams.get('address') ?? '').toLowerCase()
    if (parts[3] !== 'transactions') return json({ items: [], next_page_params: null })
    const items = chain.pageBlocks(address).map((block, i) =>
      makeTx(i + 1, {
        block,
        hash: `0x${createHash('sha256').update(`${address}|${block}|${i}`).digest('hex')}`,
        from: party(outsider),
        to: party(address),
        confirmations: chain.head - block,
      }),
    )
    return json({ items, next_page_params: null })
  }
  const info: SandboxInfo = {
    base_url: 'https://provider.invalid',
    rpc_url: 'https://provider.invalid/rpc',
    networks: [NETWORK, 'beta'],
    api_key: 'k',
    demo_addresses: {},
    billing: 'call-plus-batch',
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-week-'))
  const core = await createCore({
    host: 'web',
    version: 'bench',
    platform: process.platform,
    dataDir: dir,
    log: { info() {}, warn: (m) => log(`core: ${m}`), error: (m) => log(`core: ${m}`) },
    redactor: new Redactor(),
    fetch,
    sandboxLauncher: { launch: async () => ({ info, stop: async () => {}, exited: new Promise(() => {}) }) },
    keychain: () => Promise.reject(new Error('not used')),
    // A big quota: the check is measured, not the day's limit.
    tuning: {},
  })
  const call = async <T>(name: string, input: unknown): Promise<T> => {
    const r = await core.bridge.dispatch(name, input)
    if (!r.ok) throw new Error(`${name}: ${r.error.kind}: ${r.error.message}`)
    return r.value as T
  }
  try {
    await call('profiles.activate', { id: 'sandbox' })
    await call('profiles.setLimits', { id: 'sandbox', limits: { ratePerSecond: 50, burst: 50, quotaPerDay: 100_000 } })
    const addresses = weekAddresses()
    const list = await call<{ id: string }>('watchlists.create', { name: 'Week' })
    for (const address of addresses)
      await call('watchlists.addEntry', {
        listId: list.id,
        entry: { address, network: NETWORK, label: '', note: '', tags: [] },
      })
    await call('watch.check', { listId: list.id })
    // The week: five addresses receive coin or tokens at its start, middle and end.
    const start = chain.head
    chain.head += GAP
    const changed = WEEK_KINDS.map((kind, i) => {
      const to = changedAddress(addresses, i)
      chain.move({ block: start + movedAt(i, GAP), kind, from: outsider, to, amount: 10n ** 15n })
      return to
    })
    // The app on screen a moment: its height watcher learns the head, so the estimate knows the gap.
    core.setVisible(true)
    for (let i = 0; i < 100; i++) {
      const views = await call<{ network: string; height: string | null }[]>('height.get', {})
      if (Number(views.find((v) => v.network === NETWORK)?.height) === chain.head) break
      await new Promise((r) => setTimeout(r, 50))
    }
    core.setVisible(false)
    const estimate = await call<{ requests: number }>('watch.estimate', { listId: list.id })
    const before = chain.units
    const result = await call<WatchCheckResult>('watch.check', { listId: list.id })
    const units = chain.units - before
    const marked = changed.filter((a) => result.statuses.some((s) => s.address === a && s.unseen)).length
    const wrong = result.statuses.filter((s) => s.unseen && !changed.includes(s.address)).length
    log(
      `week-away: the check counted ${result.requests} itself; ${wrong} unchanged addresses marked; errors: ${JSON.stringify(result.networks.map((n) => n.error))}`,
    )
    const naive = 3 * Math.ceil(GAP / CAP)
    return `week-away: blocks=${GAP} log_cap=${CAP} addresses=50 estimate=${estimate.requests} units=${units} marked=${marked}/${changed.length} naive_log_units=${naive}`
  } finally {
    await core.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
}

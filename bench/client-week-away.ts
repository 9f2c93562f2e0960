import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BridgeEvents, WatchCheckResult } from '@shared/bridge/contract'
import { requestUnits, type Billing } from '@shared/domain/billing'
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
 * capped at 50 (`-32600 batch too large`), a Blockscout-shaped data API (a token received is
 * listed under the token transfers, not the receiver's transactions; balances per token), 50
 * watched addresses of which 3 changed: one received an ERC-20 150,000 blocks back, one coin
 * 90,000 blocks back, one an ERC-20 5 blocks before the check (issue 42). Once per billing
 * mode: per HTTP request, and per call plus one per batch. The real sandbox cannot play the
 * gap: anvil (1.7.1) has no way to move its block number but to mine every block (`anvil_mine`
 * with a count loops inside anvil, and slows as the chain grows): 2,000 empty blocks took
 * 1.4-2.1 s on a fresh anvil, 30,000 about 9 minutes, and on 27 Nov 2026 with the machine
 * shared, 26,700 took 10.5 minutes (`--prune-history` no faster). client-week-real.ts plays
 * the same number of log windows on the real sandbox (a smaller cap over fewer blocks).
 *
 *   week-away: blocks=300000 log_cap=1000 batch_cap=50 billing=B addresses=50 estimate=E units=U client_units=C marked=M/N way=W naive_units=L
 *
 * E: what watch.estimate said before the check ran (least-most while the cap is unknown); U: what the provider billed for the
 * check; C: what the check counted itself; marked: changed addresses the check marked, of
 * those that changed; W: the way it read the gap (its progress event); L: the 900 single
 * `eth_getLogs` (3 filters × 300 windows) a window-by-window read of single calls costs. Targets: U ≤ 60, M = N.
 */
const NETWORK = 'alpha'
const GAP = 300_000
const CAP = 1000
const BATCH_CAP = 50

/** The 50 watched addresses: never used on any chain, so only the week's own movements change them. */
export const weekAddresses = (): string[] =>
  Array.from({ length: 50 }, (_, i) => `0x${createHash('sha256').update(`week-${i}`).digest('hex').slice(0, 40)}`)

/** What the five changed addresses of the scaled real week receive, the i-th at `movedAt(i, gap)`: the gap's start, quarters and end. */
export const WEEK_KINDS: readonly Movement['kind'][] = ['coin', 'erc20', 'erc721', 'erc1155', 'coin']

/** The i-th movement's block, counted from the last checked block (1 = the gap's first block). */
export const movedAt = (i: number, gap: number): number => 1 + Math.floor((i * (gap - 1)) / (WEEK_KINDS.length - 1))

/** The i-th changed address: every ninth of the list. */
export const changedAddress = (addresses: readonly string[], i: number): string => addresses[i * 9]!

/** The week of issue 42: what moved, how many blocks before the check. */
const MOVES: readonly { kind: Movement['kind']; blocksBack: number }[] = [
  { kind: 'erc20', blocksBack: 150_000 },
  { kind: 'coin', blocksBack: 90_000 },
  { kind: 'erc20', blocksBack: 5 },
]

/** A provider's HTTP face over `chain`: JSON-RPC with its batch cap and billing, the data API Blockscout-shaped. */
function providerFetch(chain: FakeChain, billing: Billing): typeof fetch {
  const outsider = `0x${'e'.repeat(40)}`
  const reply = (id: unknown, c: RpcCallSpec): unknown => {
    const item = chain.answer(c)
    return item.ok
      ? { jsonrpc: '2.0', id, result: item.result }
      : { jsonrpc: '2.0', id, error: { code: item.code, message: item.message } }
  }
  const json = (body: unknown): Response =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const parts = url.pathname.split('/').filter(Boolean)
    if (parts[0] === 'rpc') {
      const body = JSON.parse(String(init?.body)) as
        { id: unknown; method: string; params: unknown[] } | { id: unknown; method: string; params: unknown[] }[]
      if (!Array.isArray(body)) {
        chain.bill(1)
        return json(reply(body.id, body))
      }
      if (body.length > BATCH_CAP) {
        chain.bill(requestUnits(billing, body.length, true))
        return json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large' } })
      }
      chain.bill(requestUnits(billing, body.length, true))
      return json(body.map((c) => reply(c.id, c)))
    }
    chain.bill(1)
    const address = (url.searchParams.get('address') ?? '').toLowerCase()
    if (parts[3] !== 'transactions') return json({ items: chain.tokenItems(address), next_page_params: null })
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
}

export async function weekAway(log: (m: string) => void, billing: Billing): Promise<string> {
  const chain = new FakeChain(20_000, CAP)
  const outsider = `0x${'e'.repeat(40)}`
  const info: SandboxInfo = {
    base_url: 'https://provider.invalid',
    rpc_url: 'https://provider.invalid/rpc',
    networks: [NETWORK, 'beta'],
    api_key: 'k',
    demo_addresses: {},
    billing,
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-week-'))
  const core = await createCore({
    host: 'web',
    version: 'bench',
    platform: process.platform,
    dataDir: dir,
    log: { info() {}, warn: (m) => log(`core: ${m}`), error: (m) => log(`core: ${m}`) },
    redactor: new Redactor(),
    fetch: providerFetch(chain, billing),
    sandboxLauncher: { launch: async () => ({ info, stop: async () => {}, exited: new Promise(() => {}) }) },
    keychain: () => Promise.reject(new Error('not used')),
    tuning: {},
  })
  const call = async <T>(name: string, input: unknown): Promise<T> => {
    const r = await core.bridge.dispatch(name, input)
    if (!r.ok) throw new Error(`${name}: ${r.error.kind}: ${r.error.message}`)
    return r.value as T
  }
  try {
    await call('profiles.activate', { id: 'sandbox' })
    // The spec's limits: 50 a second, burst 5, 1,000 a day.
    await call('profiles.setLimits', { id: 'sandbox', limits: { ratePerSecond: 50, burst: 5, quotaPerDay: 1000 } })
    const addresses = weekAddresses()
    const list = await call<{ id: string }>('watchlists.create', { name: 'Week' })
    for (const address of addresses)
      await call('watchlists.addEntry', {
        listId: list.id,
        entry: { address, network: NETWORK, label: '', note: '', tags: [] },
      })
    await call('watch.check', { listId: list.id })
    chain.head += GAP
    const changed = MOVES.map((m, i) => {
      const to = addresses[7 + i * 14]!
      chain.move({ block: chain.head - m.blocksBack, kind: m.kind, from: outsider, to, amount: 10n ** 15n })
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
    const estimate = await call<{ requests: number; requestsMax?: number }>('watch.estimate', { listId: list.id })
    const ways = new Set<string>()
    const unsubscribe = core.bridge.subscribe((event, payload) => {
      if (event === 'watch.progress') ways.add((payload as BridgeEvents['watch.progress']).way)
    })
    const before = chain.units
    const result = await call<WatchCheckResult>('watch.check', { listId: list.id })
    unsubscribe()
    const units = chain.units - before
    const marked = changed.filter((a) => result.statuses.some((s) => s.address === a && s.unseen)).length
    const wrong = result.statuses.filter((s) => s.unseen && !changed.includes(s.address)).length
    log(
      `week-away (${billing}): ${wrong} unchanged addresses marked; widest log range asked ${chain.widestRange}; errors: ${JSON.stringify(result.networks.map((n) => n.error))}`,
    )
    const naive = 3 * Math.ceil(GAP / CAP)
    return `week-away: blocks=${GAP} log_cap=${CAP} batch_cap=${BATCH_CAP} billing=${billing} addresses=50 estimate=${estimate.requests}${estimate.requestsMax === undefined ? '' : `-${estimate.requestsMax}`} units=${units} client_units=${result.requests} marked=${marked}/${changed.length} way=${[...ways].join('+') || 'none'} naive_units=${naive}`
  } finally {
    await core.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
}

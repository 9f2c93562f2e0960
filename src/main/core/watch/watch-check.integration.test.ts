import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { BridgeCallInput, BridgeCallName, BridgeCallOutputs, WatchStatus } from '@shared/bridge/contract'
import type { Core } from '../app-core'
import type { SandboxInfo } from '../sandbox/sandbox-launcher'
import { admin, capturingLauncher, tsxSandboxLauncher } from '../testing/sandbox-harness'
import { testCore } from '../testing/test-core'

/**
 * The watch check and the height source against real sandboxes: one as usual, one that
 * refuses JSON-RPC batches (--no-batch). Funds move through the sandbox's admin transfer; the
 * sandbox's own stats count what each check cost.
 */
interface Rig {
  core: Core
  info: SandboxInfo
  dir: string
  notified: { title: string; body: string }[]
  call<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeCallOutputs[K]>
  dispose(): Promise<void>
}

async function rig(args: string[]): Promise<Rig> {
  const launcher = capturingLauncher(
    tsxSandboxLauncher(['--admin', '--block-time', '0', '--rate', '1000', '--burst', '1000', ...args]),
  )
  const notified: { title: string; body: string }[] = []
  const { core, call, dir, dispose } = await testCore(launcher, {
    notify: (title, body) => notified.push({ title, body }),
  })
  await call('profiles.activate', { id: 'sandbox' })
  await call('sandbox.status', {})
  await call('limiter.state', {})
  // Starts the sandbox (on demand, as the app does) and waits for it.
  await call('data.balances', { network: 'alpha', address: '0x0000000000000000000000000000000000000001' })
  return { core, info: launcher.info!, dir, notified, call, dispose }
}

const fresh = (i: number): string => `0x${'0'.repeat(30)}${(0xbeef00 + i).toString(16).padStart(10, '0')}`

describe.each([
  ['a provider with batches', [] as string[], true],
  ['a provider that refuses batches (--no-batch)', ['--no-batch'], false],
])('watch check against %s', (_name, args, batches) => {
  let r: Rig
  let listId: string
  const addresses = Array.from({ length: 8 }, (_, i) => fresh(i))
  const requestsOf = async (work: () => Promise<unknown>): Promise<number> => {
    const ops = admin(r.info)
    const before = (await ops.stats(r.info.api_key)).requests
    await work()
    return (await ops.stats(r.info.api_key)).requests - before
  }

  beforeAll(async () => {
    r = await rig(args)
    const list = await r.call('watchlists.create', { name: 'Watched' })
    listId = list.id
    for (const address of addresses)
      await r.call('watchlists.addEntry', {
        listId,
        entry: { address, network: 'alpha', label: '', note: '', tags: [] },
      })
  }, 600_000)
  afterAll(async () => {
    await r?.dispose()
  })

  it('sets a baseline first, then finds nothing new at the cost it announced', async () => {
    const baseline = await r.call('watch.check', { listId })
    expect(baseline.changed).toBe(0)
    expect(baseline.statuses.every((s) => s.baseline && !s.unseen)).toBe(true)
    const estimate = await r.call('watch.estimate', { listId })
    // 8 addresses: one balance call (its block number with it), the mined head, 3 log queries.
    expect(estimate.requests).toBe(batches ? 1 : 5)
    expect(estimate.addresses).toBe(8)
    let result: BridgeCallOutputs['watch.check'] | null = null
    const spent = await requestsOf(async () => (result = await r.call('watch.check', { listId })))
    expect(result!.changed).toBe(0)
    expect(result!.requests).toBe(spent)
    expect(spent).toBe(estimate.requests)
    expect(result!.networks[0]).toMatchObject({ network: 'alpha', batched: batches, error: null })
  })

  it('sees coin and token transfers, with deltas and new transactions, refetching only the changed addresses', async () => {
    const [a, b, c, d] = addresses as [string, string, string, string]
    await admin(r.info).transfer({ network: 'alpha', to: a, amount: '5000' })
    await admin(r.info).transfer({ network: 'alpha', to: b, kind: 'erc20', amount: '2500000' })
    await admin(r.info).transfer({ network: 'alpha', to: c, kind: 'erc721' })
    await admin(r.info).transfer({ network: 'alpha', to: d, kind: 'erc1155', amount: '3' })
    const estimate = await r.call('watch.estimate', { listId })
    let result: BridgeCallOutputs['watch.check'] | null = null
    const spent = await requestsOf(async () => (result = await r.call('watch.check', { listId })))
    expect(result!.changed).toBe(4)
    // The check itself, then balances and first page of each changed address.
    expect(spent).toBe(estimate.requests + 4 * 2)
    expect(result!.requests).toBe(spent)
    const of = (x: string): WatchStatus => result!.statuses.find((s) => s.address === x)!
    expect(of(a)).toMatchObject({ unseen: true, newTxs: 1, deltas: [{ token: null, standard: 'coin', delta: '5000' }] })
    expect(of(b)).toMatchObject({ unseen: true, deltas: [{ standard: 'erc20', delta: '2500000' }] })
    expect(of(c)).toMatchObject({ unseen: true, deltas: [{ standard: 'erc721', delta: '1' }] })
    expect(of(d)).toMatchObject({ unseen: true, deltas: [{ standard: 'erc1155', delta: '3' }] })
    expect(of(addresses[4]!)).toMatchObject({ unseen: false, deltas: [] })
    expect(r.notified).toEqual([
      { title: 'Watchlist: something changed', body: expect.stringContaining('4 watched addresses changed') },
    ])
    // Nothing moved since: still unseen (until marked seen), no new notification.
    await r.call('watch.check', { listId })
    expect((await r.call('watch.status', {})).filter((s) => s.unseen)).toHaveLength(4)
    expect(r.notified).toHaveLength(1)
  })

  it('mark seen clears one entry, then the list; the state survives a restart of the core', async () => {
    const list = (await r.call('watchlists.list', {})).find((l) => l.id === listId)!
    const seen = await r.call('watch.markSeen', { listId, entryId: list.entries[0]!.id })
    expect(seen).toEqual([expect.objectContaining({ address: addresses[0], unseen: false, newTxs: 0, deltas: [] })])
    expect((await r.call('watch.status', {})).filter((s) => s.unseen)).toHaveLength(3)
    await r.call('watch.markSeen', { listId })
    expect((await r.call('watch.status', {})).some((s) => s.unseen)).toBe(false)
    const saved: unknown = JSON.parse(readFileSync(join(r.dir, 'watch-state.json'), 'utf8'))
    expect(saved).toMatchObject({
      version: 1,
      profiles: { sandbox: { networks: { alpha: { checkedBlock: expect.any(Number) } } } },
    })
    // The watchlists file keeps its own shape: older versions still read it.
    expect(JSON.parse(readFileSync(join(r.dir, 'watchlists.json'), 'utf8'))).toMatchObject({ version: 2 })
  })

  it('reads the height of both networks (through single calls where batches are refused)', async () => {
    let views: BridgeCallOutputs['height.get'] = []
    r.core.setVisible(true)
    await vi.waitFor(
      async () => {
        views = await r.call('height.get', {})
        expect(views.length === 2 && views.every((v) => v.height !== null)).toBe(true)
      },
      { timeout: 10_000, interval: 100 },
    )
    r.core.setVisible(false)
    expect(views.map((v) => v.network)).toEqual(['alpha', 'beta'])
    expect(views.every((v) => v.height !== null && v.gasPriceWei !== null)).toBe(true)
  })
})

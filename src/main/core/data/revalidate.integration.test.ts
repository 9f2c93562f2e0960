import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type {
  BalancesView,
  BridgeCallInput,
  BridgeCallName,
  BridgeCallOutputs,
  TransactionsPage,
} from '@shared/bridge/contract'
import type { Core } from '../app-core'
import type { SandboxInfo } from '../sandbox/sandbox-launcher'
import { admin, capturingLauncher, tsxSandboxLauncher } from '../testing/sandbox-harness'
import { testCore } from '../testing/test-core'

/**
 * Revalidation against a real sandbox (anvil behind the sandbox's RPC proxy): with freshness
 * windows of 0 every revisit finds its cache stale; an address nothing touched costs the
 * one revalidation batch, a changed one refetches. The sandbox's own stats count requests.
 */
interface Rig {
  core: Core
  info: SandboxInfo
  dir: string
  call<K extends BridgeCallName>(name: K, input: BridgeCallInput<K>): Promise<BridgeCallOutputs[K]>
  dispose(): Promise<void>
}

async function rig(args: string[]): Promise<Rig> {
  const launcher = capturingLauncher(
    tsxSandboxLauncher(['--admin', '--block-time', '0', '--rate', '1000', '--burst', '1000', ...args]),
  )
  const { core, call, dir, dispose } = await testCore(launcher, {
    tuning: { freshness: { balancesMs: 0, firstPageMs: 0 } },
  })
  await call('profiles.activate', { id: 'sandbox' })
  await call('data.balances', { network: 'alpha', address: '0x0000000000000000000000000000000000000001' })
  // The height poll is the endpoint's first batch: from then on the app knows it takes batches.
  core.setVisible(true)
  await vi.waitFor(async () => expect((await call('height.get', {})).every((v) => v.height !== null)).toBe(true), {
    timeout: 30_000,
    interval: 200,
  })
  core.setVisible(false)
  return { core, info: launcher.info!, dir, call, dispose }
}

const fresh = (i: number): string => `0x${'0'.repeat(30)}${(0xfeed00 + i).toString(16).padStart(10, '0')}`

describe.each([
  ['a provider with batches', [] as string[], true],
  ['a provider that refuses batches (--no-batch)', ['--no-batch'], false],
])('revalidation against %s', (_name, args, batches) => {
  let r: Rig
  const [quiet, coin, token, other] = [fresh(0), fresh(1), fresh(2), fresh(3)]
  const requestsOf = async <T>(work: () => Promise<T>): Promise<{ spent: number; value: T }> => {
    const ops = admin(r.info)
    const before = (await ops.stats(r.info.api_key)).requests
    const value = await work()
    return { spent: (await ops.stats(r.info.api_key)).requests - before, value }
  }
  /** An address opened as the app opens it: balances and the first page at once. */
  const visit = (address: string): Promise<[BalancesView, TransactionsPage]> =>
    Promise.all([
      r.call('data.balances', { network: 'alpha', address }),
      r.call('data.transactions', { network: 'alpha', address, cursor: null }),
    ])

  beforeAll(async () => {
    r = await rig(args)
    for (const address of [quiet, coin, token])
      await admin(r.info).transfer({ network: 'alpha', to: address, amount: '1000' })
    // First pages first: the balances then know the block they are current at.
    for (const address of [quiet, coin, token]) {
      await r.call('data.transactions', { network: 'alpha', address, cursor: null })
      await r.call('data.balances', { network: 'alpha', address })
    }
    // The chain moves on without touching them.
    await admin(r.info).transfer({ network: 'alpha', to: other, amount: '1' })
  }, 600_000)
  afterAll(async () => {
    await r?.dispose()
  })

  it('an unchanged address costs the one revalidation batch (with batches) and keeps when it was fetched', async () => {
    const { spent, value } = await requestsOf(() => visit(quiet))
    const [balances, page] = value
    expect(page.items).toHaveLength(1)
    if (batches) {
      expect(spent).toBe(1)
      expect(page).toMatchObject({ source: 'cache', checkedAt: expect.any(String) })
      expect(balances).toMatchObject({ source: 'cache', checkedAt: expect.any(String) })
      expect(Date.parse(page.checkedAt!)).toBeGreaterThan(Date.parse(page.fetchedAt))
    } else {
      // Without batches the check would be 10 single calls: refetching (2) is cheaper.
      expect(spent).toBe(2)
      expect(page).toMatchObject({ source: 'network' })
      expect(page.checkedAt).toBeUndefined()
    }
  })

  it('coin moved in: the first page is refetched and shows it; token balances are kept', async () => {
    await admin(r.info).transfer({ network: 'alpha', to: coin, amount: '5000' })
    const { spent, value } = await requestsOf(() => visit(coin))
    const [balances, page] = value
    expect(page.source).toBe('network')
    expect(page.items).toHaveLength(2)
    expect(page.items[0]!.value).toBe('5000')
    if (batches) {
      expect(spent).toBe(2)
      expect(balances).toMatchObject({ source: 'cache', checkedAt: expect.any(String) })
    } else {
      expect(spent).toBe(2)
      expect(balances.source).toBe('network')
    }
  })

  it('a token moved in: balances and the first page are refetched', async () => {
    const before = await r.call('data.balances', { network: 'alpha', address: token, refresh: true })
    expect(before.items).toHaveLength(0)
    await admin(r.info).transfer({ network: 'alpha', to: token, kind: 'erc20', amount: '2500000' })
    const { spent, value } = await requestsOf(() => visit(token))
    const [balances, page] = value
    expect(spent).toBe(batches ? 3 : 2)
    expect(balances.source).toBe('network')
    expect(balances.items.map((i) => i.value)).toEqual(['2500000'])
    expect(page.source).toBe('network')
    expect(page.items).toHaveLength(2)
  })
})

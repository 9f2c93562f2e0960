import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxInfo } from '../sandbox/sandbox-launcher'
import { admin, capturingLauncher, tsxSandboxLauncher } from '../testing/sandbox-harness'
import { testCore } from '../testing/test-core'

/**
 * The watch check against sandboxes playing a provider that bills per call plus one per batch,
 * caps batches at 50 and log ranges at 20 blocks, refusing a wider range in two dialects (one
 * naming its cap, one not). The gap since the last check is made by empty blocks mined before
 * each transfer (`after`), so it is wider than the cap.
 */
/** A sandbox playing a provider with a batch cap of 50 (no blocks of its own, a wide rate: only the test's blocks and counts). */
const providerSandbox = (p: { billing: string; logCap: number; dialect: string }) =>
  capturingLauncher(
    tsxSandboxLauncher([
      ...['--admin', '--block-time', '0', '--rate', '1000', '--burst', '1000'],
      ...['--billing', p.billing, '--batch-cap', '50', '--log-cap', String(p.logCap), '--log-dialect', p.dialect],
    ]),
  )

const fresh = (i: number): string => `0x${'0'.repeat(30)}${(0xcafe00 + i).toString(16).padStart(10, '0')}`

describe.each([['max-range'], ['too-wide']])('watch check on a 20-block log cap refused as %s', (dialect) => {
  let rig: Awaited<ReturnType<typeof testCore>>
  let info: SandboxInfo
  let listId: string
  const addresses = Array.from({ length: 8 }, (_, i) => fresh(i))
  const call: (typeof rig)['call'] = (name, input) => rig.call(name, input)

  beforeAll(async () => {
    const launcher = providerSandbox({ billing: 'call-plus-batch', logCap: 20, dialect })
    rig = await testCore(launcher)
    await call('profiles.activate', { id: 'sandbox' })
    await call('data.balances', { network: 'alpha', address: addresses[0]! })
    info = launcher.info!
    const list = await call('watchlists.create', { name: 'Gap' })
    listId = list.id
    for (const address of addresses)
      await call('watchlists.addEntry', { listId, entry: { address, network: 'alpha', label: '', note: '', tags: [] } })
    await call('watch.check', { listId })
  }, 600_000)
  afterAll(async () => {
    await rig?.dispose()
  })

  it('an unchanged check costs what its estimate said: the balances, the head and 3 filters as 5 single calls (a batch of 5 costs 6)', async () => {
    const estimate = await call('watch.estimate', { listId })
    const ops = admin(info)
    const before = await ops.stats(info.api_key)
    const result = await call('watch.check', { listId })
    const after = await ops.stats(info.api_key)
    expect(result.changed).toBe(0)
    expect(after.units - before.units).toBe(5)
    expect(result.requests).toBe(5)
    expect(estimate.requests).toBe(5)
    expect(estimate.requestsMax ?? estimate.requests).toBe(5)
  })

  it('marks exactly the addresses that changed across a gap wider than the cap, and counts what it cost in units', async () => {
    const [a, b, c] = addresses as [string, string, string]
    await admin(info).transfer({ network: 'alpha', to: a, amount: '5000', after: 30 })
    await admin(info).transfer({ network: 'alpha', to: b, kind: 'erc20', after: 25 })
    await admin(info).transfer({ network: 'alpha', to: c, kind: 'erc1155', after: 5 })
    const ops = admin(info)
    const before = await ops.stats(info.api_key)
    const result = await call('watch.check', { listId })
    const after = await ops.stats(info.api_key)
    expect(result.networks[0]!.error).toBeNull()
    expect(result.statuses.filter((s) => s.unseen).map((s) => s.address)).toEqual([a, b, c])
    // What the check says it cost is what the provider counted (refused ranges included).
    expect(result.requests).toBe(after.units - before.units)
    // Next time nothing moved: no refusal again (the cap is known, or the gap is short).
    const quiet = await call('watch.check', { listId })
    expect(quiet.changed).toBe(0)
    expect(quiet.networks[0]!.error).toBeNull()
  })
})

describe('watch check on a provider billing per request, batches capped at 50, a 10-block log cap', () => {
  let rig: Awaited<ReturnType<typeof testCore>>
  let info: SandboxInfo
  let listId: string
  const addresses = Array.from({ length: 8 }, (_, i) => fresh(0x40 + i))

  beforeAll(async () => {
    const launcher = providerSandbox({ billing: 'request', logCap: 10, dialect: 'max-range' })
    rig = await testCore(launcher)
    await rig.call('profiles.activate', { id: 'sandbox' })
    await rig.call('data.balances', { network: 'alpha', address: addresses[0]! })
    info = launcher.info!
    listId = (await rig.call('watchlists.create', { name: 'Batched' })).id
    for (const address of addresses)
      await rig.call('watchlists.addEntry', {
        listId,
        entry: { address, network: 'alpha', label: '', note: '', tags: [] },
      })
    await rig.call('watch.check', { listId })
  }, 600_000)
  afterAll(async () => {
    await rig?.dispose()
  })

  it('reads the log windows in batches of whole windows (not 3 single calls a window) and marks the old and the newest change', async () => {
    const [a, b, c] = addresses as [string, string, string]
    const ops = admin(info)
    const start = await ops.head('alpha')
    await ops.transfer({ network: 'alpha', to: a, kind: 'erc20', after: 5 })
    await ops.transfer({ network: 'alpha', to: b, amount: '7000', after: 200 })
    await ops.transfer({ network: 'alpha', to: c, kind: 'erc20', after: 40 })
    const gap = (await ops.head('alpha')) - start
    const before = await ops.stats(info.api_key)
    const result = await rig.call('watch.check', { listId })
    const after = await ops.stats(info.api_key)
    expect(result.networks[0]!.error).toBeNull()
    expect(result.statuses.filter((s) => s.unseen).map((s) => s.address)).toEqual([a, b, c])
    expect(result.requests).toBe(after.units - before.units)
    // Whole windows in batches (the sandbox's cap of 50 learnt on the way, its refusal billed
    // too): a few requests, where single calls would be 3 a window.
    const windows = Math.ceil(gap / 10)
    const rpc = after.by_endpoint.rpc! - (before.by_endpoint.rpc ?? 0)
    expect(windows).toBeGreaterThan(20)
    expect(rpc).toBeLessThanOrEqual(1 + 1 + Math.ceil((windows * 3) / 37))
    expect(after.by_endpoint.balance! - (before.by_endpoint.balance ?? 0)).toBe(3)
  })

  it('stopped by the quota reserve, it has read the newest windows, names the unread blocks and reads them at the next check', async () => {
    const [, , , x, y] = addresses as [string, string, string, string, string]
    const ops = admin(info)
    const start = await ops.head('alpha')
    // x at the gap's start, y at its end: 1,000 empty blocks between, 100 windows of the cap.
    await ops.transfer({ network: 'alpha', to: x, kind: 'erc20' })
    await ops.transfer({ network: 'alpha', to: y, kind: 'erc20', after: 1000 })
    const head = await ops.head('alpha')
    // A daily quota leaving room above the reserve for the balances and one request of windows.
    const limits = { ratePerSecond: 1000, burst: 1000 }
    const { usedToday } = await rig.call('limiter.state', {})
    let quota = usedToday + 2
    for (; ; quota++) {
      await rig.call('profiles.setLimits', { id: 'sandbox', limits: { ...limits, quotaPerDay: quota } })
      const s = await rig.call('limiter.state', {})
      if (s.leftToday - s.reserve === 2) break
      expect(quota).toBeLessThan(usedToday + 200)
    }
    const cut = await rig.call('watch.check', { listId })
    expect(cut.statuses.filter((s) => s.unseen && [x, y].includes(s.address)).map((s) => s.address)).toEqual([y])
    const note = cut.networks[0]!.error!
    const unread = /blocks ([\d,]+)-([\d,]+) still unread/.exec(note)
    expect(note).toMatch(/^stopped at the quota reserve with token transfers read newest first down to block /)
    expect(Number(unread![1]!.replaceAll(',', ''))).toBeLessThanOrEqual(start + 1)
    expect(Number(unread![2]!.replaceAll(',', ''))).toBeLessThan(head - 100)
    await rig.call('profiles.setLimits', { id: 'sandbox', limits: { ...limits, quotaPerDay: 100_000 } })
    const resumed = await rig.call('watch.check', { listId })
    expect(resumed.networks[0]!.error).toBeNull()
    expect(resumed.statuses.filter((s) => s.unseen && [x, y].includes(s.address)).map((s) => s.address)).toEqual([x, y])
  })
})

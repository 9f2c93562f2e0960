import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SandboxInfo } from './sandbox/sandbox-launcher'
import { admin, capturingLauncher, tsxSandboxLauncher } from './testing/sandbox-harness'
import { testCore } from './testing/test-core'

/**
 * A cost preview counts every call its operation will send, the ones a network's first use adds
 * included (issue 43): on a fresh app the Multicall3 probe (`eth_getCode`) rides in the first
 * batch that reads through an eth_call. Against the real sandbox billing per call, the preview
 * must equal what the sandbox then counted.
 */
let rig: Awaited<ReturnType<typeof testCore>>
let info: SandboxInfo
const call: (typeof rig)['call'] = (name, input) => rig.call(name, input)
/** What the sandbox counted, in its billing unit. */
const units = async (): Promise<number> => (await admin(info).stats(info.api_key)).units

beforeAll(async () => {
  const launcher = capturingLauncher(
    tsxSandboxLauncher(['--admin', '--block-time', '0', '--rate', '1000', '--burst', '1000', '--billing', 'call']),
  )
  rig = await testCore(launcher)
  await call('profiles.activate', { id: 'sandbox' })
  // Starts the sandbox (on demand, as the app does): a data API read, no eth_call.
  await call('data.balances', { network: 'alpha', address: '0x0000000000000000000000000000000000000001' })
  info = launcher.info!
  expect((await call('limiter.state', {})).billing).toBe('call')
}, 600_000)

afterAll(async () => {
  await rig?.dispose()
})

describe("cost previews on a network's first use, billed per call", () => {
  it('the approvals scan costs what its preview said, the Multicall3 probe of its state call included', async () => {
    const whale = info.demo_addresses.beta!.whale!
    // Nothing of the address is loaded: the view sends nothing, and the probe is still to do.
    const before = await units()
    const first = await call('approvals.view', { network: 'beta', address: whale })
    expect(first.cost.units).toBe(0)
    expect(await units()).toBe(before)
    const preview = first.scan.remainingUnits
    const scanned = await call('approvals.scan', { network: 'beta', address: whale })
    expect(scanned.rows.length).toBeGreaterThan(0)
    expect(scanned.stateError).toBeNull()
    expect(await units()).toBe(before + scanned.cost.units)
    expect(scanned.cost.units).toBe(preview)
  })

  // On alpha, whose probe the approvals scan (on beta) did not do.
  it('the first watch check costs what its estimate said, its probe included', async () => {
    const list = await call('watchlists.create', { name: 'First use' })
    for (const i of [1, 2, 3])
      await call('watchlists.addEntry', {
        listId: list.id,
        entry: { address: `0x${'0'.repeat(39)}${i}`, network: 'alpha', label: '', note: '', tags: [] },
      })
    const estimate = await call('watch.estimate', { listId: list.id })
    // A baseline: one eth_call for the three balances, the probe beside it, and each address's
    // token balances read once (the snapshot a long gap is compared with, docs/decisions/watch-gap-routes.md).
    expect(estimate.requests).toBe(2 + 3)
    const before = await units()
    const result = await call('watch.check', { listId: list.id })
    expect(await units()).toBe(before + estimate.requests)
    expect(result.requests).toBe(estimate.requests)
  })

  it('"Refresh all" costs one request per address, as its preview (WatchlistsView) counts', async () => {
    const before = await units()
    for (const i of [4, 5, 6])
      await call('data.balances', { network: 'beta', address: `0x${'0'.repeat(39)}${i}`, refresh: true })
    expect(await units()).toBe(before + 3)
  })
})

import { createHash } from 'node:crypto'
import { tsxSandboxLauncher } from '../src/main/core/testing/sandbox-harness'
import { admin } from '../src/main/core/testing/sandbox-harness'
import { freshCore, type LiveBench } from './client-live'

/**
 * The watch check and the live height against the real sandbox:
 *
 *   watch-check:[ provider=…] addresses=50 changed=C requests=R units=U naive_units=100
 *     50 addresses of one network (its sample wallets, then never-used addresses) in a watchlist; a first full refresh (balances and first page
 *     of each) and a first check set the baseline; then a check with nothing changed, and one
 *     after the sandbox moved funds to 5 of them (coin, ERC-20, ERC-721, ERC-1155). R from the
 *     sandbox's own request and unit counts; naive = balances + first page of every address again.
 *     Targets: R ≤ 3 (C = 0), R ≤ 3 + 2·5 (C = 5). Again on a sandbox playing a provider that
 *     bills per call plus one per batch, caps batches at 50 and log ranges at 1,000 blocks
 *     (`providerWatchCheck`): U ≤ 5 (C = 0), U ≤ 16 (C = 5).
 *   height-live: seconds=180 error_p95_blocks=E error_max_blocks=M requests=N batch=yes|no
 *     a fresh sandbox (its newest blocks still carry seeded timestamps) and a fresh core made
 *     visible at once; every second, |shown height − eth_blockNumber| on both networks (the
 *     probes are not counted in N). Target E ≤ 2 from the first minute on.
 */
export async function watchCheckBench(bench: LiveBench, label = ''): Promise<string[]> {
  const { info } = bench.sandbox
  const network = info.networks[0]!
  // The network's sample wallets (the live chain never touches them: it trades among its
  // background accounts; the deployer is left out as it sends the admin token mints), then
  // never-used addresses: only the bench's own transfers change them.
  const demo = Object.entries(info.demo_addresses[network] ?? {})
    .filter(([role]) => role !== 'counterparty' && role !== 'deployer')
    .map(([, a]) => a.toLowerCase())
  const addresses = [...new Set(demo)]
  for (let i = 1; addresses.length < 50; i++)
    addresses.push(`0x${createHash('sha256').update(`watch-${i}`).digest('hex').slice(0, 40)}`)
  const ops = admin(info)
  const { call, dispose } = await freshCore(bench.sandbox, { warm: false })
  const lines: string[] = []
  try {
    const list = await call('watchlists.create', { name: 'Bench' })
    for (const address of addresses)
      await call('watchlists.addEntry', { listId: list.id, entry: { address, network, label: '', note: '', tags: [] } })
    // The first full refresh, then the check that sets the baseline.
    await Promise.all(
      addresses.flatMap((address) => [
        call('data.balances', { network, address, priority: 'user', scope: 'bench' }),
        call('data.transactions', { network, address, cursor: null, priority: 'user', scope: 'bench' }),
      ]),
    )
    await call('watch.check', { listId: list.id })
    const measure = async (): Promise<{ requests: number; units: number; changed: number }> => {
      // A new block since the last check (probed outside the measure): the check has blocks to read.
      const at = await ops.head(network)
      while ((await ops.head(network)) === at) await new Promise((r) => setTimeout(r, 500))
      const before = await ops.stats(info.api_key)
      const estimate = await call('watch.estimate', { listId: list.id })
      const result = await call('watch.check', { listId: list.id })
      const after = await ops.stats(info.api_key)
      const requests = after.requests - before.requests
      bench.log(
        `watch-check${label}: estimated ${estimate.requests}${estimate.requestsMax === undefined ? '' : `-${estimate.requestsMax}`} before it ran (${estimate.percentOfLeft} % of ${estimate.leftToday} left), counted ${result.requests} itself; 429s=${after.rejected_429 - before.rejected_429}; errors ${JSON.stringify(result.networks.map((n) => n.error))}`,
      )
      return { requests, units: after.units - before.units, changed: result.changed }
    }
    const line = (m: { requests: number; units: number; changed: number }): string =>
      `watch-check:${label} addresses=50 changed=${m.changed} requests=${m.requests} units=${m.units} naive_units=100`
    const quiet = await measure()
    lines.push(line(quiet))
    const kinds = ['native', 'erc20', 'erc721', 'erc1155', 'native'] as const
    for (const [i, kind] of kinds.entries()) {
      const to = addresses[20 + i * 5]
      await ops.transfer({ network, to: to!, kind })
    }
    const moved = await measure()
    lines.push(line(moved))
  } finally {
    await dispose()
  }
  return lines
}

export async function heightLive(log: (m: string) => void, batch: boolean, seconds = 180): Promise<string> {
  log(`height-live: starting a fresh sandbox${batch ? '' : ' with --no-batch'}…`)
  const sandbox = await tsxSandboxLauncher(['--admin', ...(batch ? [] : ['--no-batch'])]).launch({
    onProgress: () => {},
  })
  try {
    const { info } = sandbox
    const ops = admin(info)
    const before = await ops.stats(info.api_key)
    const { core, call, dispose } = await freshCore(sandbox, { warm: false })
    let probes = 0
    const truth = async (network: string): Promise<number> => {
      probes += 1
      return ops.head(network)
    }
    const errors: number[] = []
    const late: number[] = []
    const started = performance.now()
    core.setVisible(true)
    try {
      for (let s = 1; s <= seconds; s++) {
        await new Promise((r) => setTimeout(r, Math.max(0, started + s * 1000 - performance.now())))
        const views = await call('height.get', {})
        for (const network of info.networks) {
          const real = await truth(network)
          const shown = views.find((v) => v.network === network)?.height ?? null
          const error = shown === null ? Infinity : Math.abs(Number(shown) - real)
          errors.push(error)
          if (s > 60) late.push(error)
        }
      }
    } finally {
      core.setVisible(false)
      await dispose()
    }
    const after = await ops.stats(info.api_key)
    const requests = after.requests - before.requests - probes
    const pct = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? 0
    log(
      `height-live (${batch ? 'batch' : 'no batch'}): after the first minute p95=${pct(late)} max=${Math.max(...late)}; first 10 s: ${errors.slice(0, 20).join(',')}`,
    )
    return `height-live: seconds=${seconds} error_p95_blocks=${pct(errors)} error_max_blocks=${Math.max(...errors)} requests=${requests} batch=${batch ? 'yes' : 'no'}`
  } finally {
    await sandbox.stop()
  }
}

/** The sandbox flags of a provider billing per call plus one per batch, batches capped at 50, log ranges at `logCap` blocks. */
export const perCallProvider = (logCap: number): string[] => [
  '--billing',
  'call-plus-batch',
  '--batch-cap',
  '50',
  '--log-cap',
  String(logCap),
]
const PER_CALL_PROVIDER = perCallProvider(1000)

/** The watch check on a fresh sandbox playing a per-call provider (PER_CALL_PROVIDER). */
export async function providerWatchCheck(log: (m: string) => void): Promise<string[]> {
  log('watch-check: starting a sandbox billing per call, batches capped at 50, log ranges at 1,000 blocks…')
  const sandbox = await tsxSandboxLauncher(['--admin', ...PER_CALL_PROVIDER]).launch({ onProgress: () => {} })
  try {
    return await watchCheckBench({ sandbox, log }, ' provider=per-call+1,batch-cap=50,log-cap=1000')
  } finally {
    await sandbox.stop()
  }
}

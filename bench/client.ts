/**
 * `npm run bench:client`: the main-process core measured against the sandbox. Prints three
 * lines (diagnostics go to stderr):
 *
 *   watchlist-refresh: addresses=50 requests=R wall_s=W 429s=K
 *     balances and the first transactions page of 50 addresses at once, through a fresh core
 *     (no cache) on a sandbox enforcing the real limits (50/s, burst 5, 1000/day). Target
 *     W ≤ 1.05 × (R − 5)/50, K = 0.
 *   paging: pages=P wall_s=W overhead_pct=X 429s=K
 *     every page of the busy address through the core, against raw sequential fetches (paced
 *     to the same limit). Target X ≤ 10, K = 0.
 *   analyst-hour: requests=R naive_requests=N ratio=X height_error_p95_blocks=E
 *     a scripted hour on a simulated clock (bench/client-sim.ts). Target X ≤ 0.05, E ≤ 2.
 *   watch-check: … (twice) and height-live: … (with and without batches): see client-watch.ts.
 *
 *   week-away: … a week's gap on a capped provider, billed per request and per call plus one per
 *     batch: simulated (client-week-away.ts), then the same number of log windows on the real
 *     sandbox (client-week-real.ts).
 *
 * Options: --only refresh|paging|hour|watch|week|height, --seed N (the hour's random seed, default 1),
 * --chain slot|walk (the hour's chain model, default slot as the sandbox mines: see client-sim.ts; the other
 * model's result is printed to stderr). BENCH_TRACE=1 prints each request's send time and
 * answer time to stderr; SIM_TRACE=1 prints each request of the simulated hour (its simulated
 * time, path, address, cursor hash and the start of its JSON-RPC body).
 */
import { parseArgs } from 'node:util'
import { tsxSandboxLauncher } from '../src/main/core/testing/sandbox-harness'
import { paging, watchlistAddresses, watchlistRefresh, type LiveBench } from './client-live'
import { analystHour } from './client-sim'
import { heightLive, providerWatchCheck, watchCheckBench } from './client-watch'
import { weekAway } from './client-week-away'
import { weekAwayReal } from './client-week-real'

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    seed: { type: 'string', default: '1' },
    chain: { type: 'string', default: 'slot' },
  },
})
const log = (m: string): void => void process.stderr.write(`bench:client: ${m}\n`)
const wants = (name: string): boolean => !values.only || values.only === name

async function main(): Promise<void> {
  let sandbox = null
  const lines: string[] = []
  try {
    if (wants('refresh') || wants('paging') || wants('hour') || wants('watch')) {
      log('starting the sandbox (real limits, --admin for its request counts)…')
      sandbox = await tsxSandboxLauncher(['--admin']).launch({
        onProgress: (p) => log(`sandbox ${p.stage} ${p.network ?? ''} ${p.done ?? ''}/${p.total ?? ''}`),
      })
      const bench: LiveBench = { sandbox, log }
      if (wants('refresh')) {
        const addresses = await watchlistAddresses(bench, 50)
        if (addresses.length < 50)
          throw new Error(`only ${addresses.length} distinct addresses found for the watchlist`)
        lines.push(await watchlistRefresh(bench, addresses))
        process.stdout.write(`${lines.at(-1)}\n`)
      }
      if (wants('paging')) {
        lines.push(await paging(bench))
        process.stdout.write(`${lines.at(-1)}\n`)
      }
      if (wants('hour')) {
        lines.push(
          await analystHour({
            sandbox: sandbox.info,
            seed: Number(values.seed),
            log,
            chain: values.chain === 'walk' ? 'walk' : 'slot',
          }),
        )
        process.stdout.write(`${lines.at(-1)}\n`)
      }
      if (wants('watch')) {
        for (const line of await watchCheckBench(bench)) {
          lines.push(line)
          process.stdout.write(`${line}\n`)
        }
      }
    }
    await sandbox?.stop()
    sandbox = null
    if (wants('watch')) {
      for (const line of await providerWatchCheck(log)) {
        lines.push(line)
        process.stdout.write(`${line}\n`)
      }
    }
    if (wants('week')) {
      for (const billing of ['request', 'call-plus-batch'] as const) {
        lines.push(await weekAway(log, billing))
        process.stdout.write(`${lines.at(-1)}\n`)
      }
      lines.push(await weekAwayReal(log))
      process.stdout.write(`${lines.at(-1)}\n`)
    }
    if (wants('height')) {
      // Each on a fresh sandbox: the start is what is measured.
      for (const batch of [true, false]) {
        lines.push(await heightLive(log, batch))
        process.stdout.write(`${lines.at(-1)}\n`)
      }
    }
  } finally {
    await sandbox?.stop()
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:client failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  )
  process.exit(1)
})

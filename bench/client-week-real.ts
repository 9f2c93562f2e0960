import type { BridgeEvents } from '@shared/bridge/contract'
import { admin, tsxSandboxLauncher } from '../src/main/core/testing/sandbox-harness'
import { freshCore } from './client-live'
import { perCallProvider } from './client-watch'
import { changedAddress, movedAt, WEEK_KINDS, weekAddresses } from './client-week-away'

/**
 * The week away of client-week-away.ts on the real sandbox (anvil chains, the sandbox's own
 * billing and refusals, the real core), scaled by the one ratio that sets what its logs would
 * cost: the gap counted in windows of the log cap. The week is 300,000 blocks on a 1,000-block
 * cap, 300 windows; anvil cannot mine 300,000 blocks here in reasonable time, so this plays
 * 300 windows over 10,500 blocks on a 35-block cap.
 *
 * Why 10,500 and not fewer (3,000 blocks on a 10-block cap are 300 windows too): the check's
 * planning decides by windows of the cap (watch-plan.ts: 3 filters × windows against one data
 * request per address) except in two places that count blocks, because while the provider's
 * cap is unknown there are no windows to count:
 * - `LARGE_GAP` (watch-gap.ts, 10,000 blocks, the widest documented cap): a gap at least this
 *   long (as the height watcher knows it) is first asked with one filter alone, whose refusal
 *   names the cap; a shorter one sends its three filters with the balances, all three refused.
 *   At 3,000 blocks the check would pay 2 refused calls more than the week does and take
 *   another path to the same re-read (tried once on a 10-block cap: 60 units, not 58, and
 *   the sandbox saw 5 RPC requests, not 3). 10,500 blocks (≥ 10,000, as the week's 300,000 are) take
 *   the week's path: balances and head, one filter refused naming the cap, then the cheaper
 *   way, re-reading 50 first pages (50 units) rather than 300 windows × 3 filters (900 calls).
 * - the estimate, with the cap unknown, is a range (docs/decisions/watch-cost-range.md): the
 *   least if the asking filter were answered or named a wide cap, the most if it named none
 *   (10-block windows, or the cheaper re-read); the check spends no more than that most.
 *
 * The sandbox bills per call plus one per batch, caps batches at 50 and log ranges at 35 blocks
 * (`-32602 "query exceeds max block range 35"`, the dialect the simulated week speaks), mines no
 * block of its own (`--block-time 0`: the gap is exactly what the bench mines) and takes 1,000
 * requests a second (the core paces itself at the sandbox profile's 50/s, burst 5; the wide
 * limit only keeps a 429 from blurring the count). The five movements land where the week's
 * do: its first block, its quarters and its last, mined through the sandbox's admin transfer
 * (`after`: empty blocks by `anvil_mine`, which the sandbox's index skips).
 *
 *   week-away: sandbox=real blocks=B log_cap=35 windows=W addresses=50 estimate=E units=U client_units=C marked=M/N way=X
 *
 * U: what the sandbox billed for the check (its own count, GET /__sandbox/stats); C: what the
 * check said it cost; the two must agree. X: the way the check read the gap (its progress event).
 */
const NETWORK = 'alpha'
const WINDOWS = 300
const CAP = 35
const GAP = WINDOWS * CAP
const SANDBOX_FLAGS = [
  ...perCallProvider(CAP),
  '--log-dialect',
  'max-range',
  '--block-time',
  '0',
  '--rate',
  '1000',
  '--burst',
  '1000',
  '--admin',
]
const SANDBOX_KIND = { coin: 'native', erc20: 'erc20', erc721: 'erc721', erc1155: 'erc1155' } as const

export async function weekAwayReal(log: (m: string) => void): Promise<string> {
  log(`week-away (real): starting a sandbox: ${SANDBOX_FLAGS.join(' ')}`)
  const sandbox = await tsxSandboxLauncher(SANDBOX_FLAGS).launch({ onProgress: () => {} })
  try {
    const { info } = sandbox
    const ops = admin(info)
    const { core, call, dispose } = await freshCore(sandbox, { warm: false })
    try {
      const addresses = weekAddresses()
      const list = await call('watchlists.create', { name: 'Week' })
      for (const address of addresses)
        await call('watchlists.addEntry', {
          listId: list.id,
          entry: { address, network: NETWORK, label: '', note: '', tags: [] },
        })
      await call('watch.check', { listId: list.id })
      const start = await ops.head(NETWORK)
      const mining = performance.now()
      const changed: string[] = []
      for (const [i, kind] of WEEK_KINDS.entries()) {
        const to = changedAddress(addresses, i)
        const after = i === 0 ? undefined : movedAt(i, GAP) - movedAt(i - 1, GAP) - 2
        // The transfer: the block before the empty ones, the empty ones, then its own block.
        const { block } = await ops.transfer({ network: NETWORK, to, kind: SANDBOX_KIND[kind], after })
        if (block !== start + movedAt(i, GAP))
          throw new Error(`the ${kind} movement landed at block ${block}, not ${start + movedAt(i, GAP)}`)
        changed.push(to)
      }
      const head = await ops.head(NETWORK)
      const blocks = head - start
      log(
        `week-away (real): mined ${blocks} blocks (${start + 1}-${head}) in ${((performance.now() - mining) / 1000).toFixed(1)} s`,
      )
      // The app on screen a moment: its height watcher learns the head, so the check and its
      // estimate know the gap is long before they ask for it.
      core.setVisible(true)
      let shown: number | null = null
      for (let waited = 0; waited < 60_000 && (shown === null || shown < head); waited += 250) {
        await new Promise((r) => setTimeout(r, 250))
        const views = await call('height.get', {})
        const height = views.find((v) => v.network === NETWORK)?.height
        shown = height ? Number(height) : null
      }
      core.setVisible(false)
      if (shown === null || shown < head) throw new Error(`the height watcher showed ${shown}, not ${head}, after 60 s`)
      // A poll already sent when the window hid is answered before the count starts: the
      // sandbox's count holds still for half a second (at most 10 s of waiting).
      for (let last = -1, waited = 0; waited < 10_000; waited += 500) {
        const { units } = await ops.stats(info.api_key)
        if (units === last) break
        last = units
        await new Promise((r) => setTimeout(r, 500))
      }
      const estimate = await call('watch.estimate', { listId: list.id })
      const range = `${estimate.requests}${estimate.requestsMax === undefined ? '' : `-${estimate.requestsMax}`}`
      const ways = new Set<string>()
      const unsubscribe = core.bridge.subscribe((event, payload) => {
        if (event === 'watch.progress') ways.add((payload as BridgeEvents['watch.progress']).way)
      })
      const before = await ops.stats(info.api_key)
      const result = await call('watch.check', { listId: list.id })
      const after = await ops.stats(info.api_key)
      unsubscribe()
      const units = after.units - before.units
      const marked = changed.filter((a) => result.statuses.some((s) => s.address === a && s.unseen)).length
      const wrong = result.statuses.filter((s) => s.unseen && !changed.includes(s.address)).length
      const endpoints = Object.entries(after.by_endpoint).map(
        ([name, n]) => `${name}=${n - (before.by_endpoint[name] ?? 0)}`,
      )
      log(
        `week-away (real): height shown ${shown}; requests ${endpoints.join(' ')}; 429s=${after.rejected_429 - before.rejected_429}; ${wrong} unchanged addresses marked; errors: ${JSON.stringify(result.networks.map((n) => n.error))}`,
      )
      if (units !== result.requests)
        log(`week-away (real): the sandbox billed ${units} units, the check counted ${result.requests}: they disagree`)
      const windows = Math.ceil(blocks / CAP)
      return `week-away: sandbox=real blocks=${blocks} log_cap=${CAP} windows=${windows} addresses=50 estimate=${range} units=${units} client_units=${result.requests} marked=${marked}/${changed.length} way=${[...ways].join('+') || 'none'}`
    } finally {
      await dispose()
    }
  } finally {
    await sandbox.stop()
  }
}

import type { Priority, TransactionsPage, WatchCheckResult, WatchStatus } from '@shared/bridge/contract'
import { AppError } from '../util/app-error'
import type { RequestOptions, RpcCallSpec } from '../service/service-types'
import { cheapestUnits } from '../service/cheapest-calls'
import { MAX_SAFE_BIGINT, parseHexQuantity } from '@shared/domain/amount'
import { errorMessage } from '@shared/guards'
import { pageDeltas, record, refetchChanged } from './watch-apply'
import { refusalOf, fitsOneRange, LARGE_GAP, planFor, readGap, type GapOptions } from './watch-gap'
import { logDeltas, parseLogs, transferLogCalls, type LogEntry } from './watch-logs'
import { rpcUnits, sendCalls, type CheckRuntime, type Spend } from './watch-spend'
import { stateKey, statusOf, type ProfileWatchState } from './watch-state'

/**
 * The watch check: "what changed since the last look" for many addresses at a few units of
 * the quota, counted in the service's own unit (a provider billing per call counts each call).
 * Per network, one batch of
 *
 *   one eth_call         the coin balance of every address and the block they were read at
 *                        (balances/coin-balances.ts: Multicall3 or a deployless reader)
 *   eth_blockNumber      the newest mined block: logs are read no further
 *   eth_getLogs × 3      token transfers to or from any of the addresses since the last
 *                        checked block (watch-logs.ts: one filter per topic position)
 *
 * so 50 unchanged addresses cost 5 calls (single calls where a batch costs one more). Incoming or
 * outgoing coin shows in the balance (a sent transaction pays its fee), tokens in the logs.
 * Only changed addresses then refetch their balances and first transactions page (2 data
 * requests each), which also refreshes what the app shows. A gap longer than the provider's
 * log range (days away) is read the cheaper complete way (watch-plan.ts), window by window
 * with progress, stopping at the quota reserve and resuming there at the next check.
 * Cannot be seen: a transaction that moves no coin or token and emits no transfer (a call
 * paid by someone else, a zero-fee transaction), and coin moves that cancel out exactly.
 */
export interface WatchTarget {
  network: string
  /** Lowercase. */
  address: string
}

export type { WatchProgress } from './watch-gap'

export interface WatchCheckOptions extends GapOptions {
  priority: Priority
  now: () => number
  /** A head learned from the check's balance call: a free height correction. */
  onHead?: (network: string, head: number) => void
}

/** Groups targets by network, each address once. */
export function byNetwork(targets: WatchTarget[]): Map<string, string[]> {
  const map = new Map<string, Set<string>>()
  for (const t of targets) {
    let set = map.get(t.network)
    if (!set) map.set(t.network, (set = new Set()))
    set.add(t.address.toLowerCase())
  }
  return new Map([...map].map(([n, s]) => [n, [...s]]))
}

/** What a check of `targets` costs now, in the service's unit, before changed addresses refetch (2 each). */
export function watchUnits(
  runtime: CheckRuntime,
  state: ProfileWatchState,
  targets: WatchTarget[],
  options: GapOptions = {},
): number {
  let units = 0
  for (const [network, addresses] of byNetwork(targets)) {
    const balanceCalls = runtime.balances.callCount(network, addresses.length)
    const checked = state.networks[network]?.checkedBlock ?? null
    const head = options.headOf?.(network) ?? null
    if (checked === null) units += rpcUnits(runtime, network, balanceCalls)
    else if (head === null || fitsOneRange(checked, options, network))
      // The balances and the confirming eth_blockNumber, then the three filters.
      units += batchPays(runtime, network, balanceCalls + 1)
        ? rpcUnits(runtime, network, balanceCalls + 1 + 3)
        : cheapestUnits(runtime.client, network, balanceCalls + 1) + 3 * rpcUnits(runtime, network, 1)
    else {
      // A long gap on a provider whose cap is not known yet: one filter asks first, and the
      // plan is priced as if the cap were the widest documented (a refusal names the real one).
      const known = options.logCap?.(network) ?? null
      const plan = planFor(runtime, network, addresses, checked, head, options, known ?? LARGE_GAP)
      units += cheapestUnits(runtime.client, network, balanceCalls + 1) + (known === null ? 1 : 0) + plan.units
    }
  }
  return units
}

/**
 * Whether the balances, the mined head and the three filters cost no more as one batch than
 * sent apart (per request: 1 against 5; per call: 5 either way). Where a batch costs one more
 * (per call plus one per batch), the balances and the head go first, then the filters, all as
 * single calls: 5 units rather than 6, and with the head known the filters ask exact ranges.
 */
function batchPays(runtime: CheckRuntime, network: string, balanceCalls: number): boolean {
  return (
    rpcUnits(runtime, network, balanceCalls + 3) <=
    rpcUnits(runtime, network, balanceCalls) + 3 * rpcUnits(runtime, network, 1)
  )
}

interface NetworkOutcome {
  units: number
  changed: string[]
  warning: string | null
}

async function checkNetwork(
  runtime: CheckRuntime,
  state: ProfileWatchState,
  network: string,
  addresses: string[],
  options: WatchCheckOptions,
): Promise<NetworkOutcome> {
  const spend: Spend = { units: 0 }
  const request: RequestOptions = {
    priority: options.priority,
    attempts: options.priority === 'background' ? 1 : undefined,
  }
  const checked = state.networks[network]?.checkedBlock ?? null
  const plan = runtime.balances.plan(network, addresses)
  // The node's newest mined block, beside the balances: a node may run a call on the block it
  // is still mining (seen on anvil: 2 of 6,800 calls a block ahead of eth_blockNumber in the
  // same batch), whose logs it cannot give yet; logs are read no further than this.
  const confirm: RpcCallSpec[] = checked === null ? [] : [{ method: 'eth_blockNumber', params: [] }]
  const k = plan.calls.length
  const withLogs =
    checked !== null && fitsOneRange(checked, options, network) && batchPays(runtime, network, k + confirm.length)
  const logCalls = withLogs ? transferLogCalls(addresses, checked + 1, 'latest') : []
  const items = await sendCalls(runtime, network, [...plan.calls, ...confirm, ...logCalls], request, spend)
  let read = plan.read(items.slice(0, k))
  if (read.retry) read = read.retry.read(await sendCalls(runtime, network, read.retry.calls, request, spend))
  const head = read.head
  if (head === null) throw new AppError('protocol', `The coin balances on ${network} came without a block number.`)
  options.onHead?.(network, head)
  const minedItem = items[k]
  const mined = confirm.length && minedItem?.ok ? parseHexQuantity(minedItem.result, MAX_SAFE_BIGINT) : null
  // Unconfirmed (the call failed): the newest block is left to the next check.
  const logsTo = Math.min(head, mined === null ? head - 1 : Number(mined))
  const at = new Date(options.now()).toISOString()
  if (checked === null) {
    // The first check only sets the baseline: there is no "since" yet.
    for (const a of addresses) record(state, network, a, read.balances.get(a) ?? null, undefined, head, at)
    state.networks[network] = { checkedBlock: head }
    return { units: spend.units, changed: [], warning: null }
  }
  const logs: LogEntry[] = []
  const reread = new Map<string, TransactionsPage>()
  const rereadChanged = new Set<string>()
  let readTo = checked
  let warning: string | null = null
  // With no block since the last check there is nothing to read (anvil refuses a range past the head).
  if (logsTo <= checked) readTo = checked
  else {
    const first = withLogs ? items.slice(k + confirm.length).map(parseLogs) : []
    if (withLogs && first.every((l) => l !== null)) {
      // Logs of blocks after the balances' block are left to the next check, which reads from there.
      logs.push(...first.flatMap((l) => l!).filter((l) => l.block === null || l.block <= logsTo))
      readTo = logsTo
    } else {
      // The first batch's filters refused: a range refusal tells the cap (null when it names none).
      const failed = first.findIndex((l) => l === null)
      const refused = withLogs ? refusalOf(items[k + confirm.length + failed]) : null
      const hinted = refused?.kind === 'range' ? refused.cap : undefined
      if (typeof hinted === 'number') runtime.client.logs.noteCap(network, hinted)
      const gap = await readGap(runtime, network, addresses, checked, logsTo, options, request, spend, hinted)
      logs.push(...gap.logs)
      for (const [a, page] of gap.pages) reread.set(a, page)
      for (const a of gap.changed) rereadChanged.add(a)
      readTo = gap.readTo
      warning = gap.warning
    }
  }
  const deltas = logDeltas(logs, new Set(addresses))
  const changed: string[] = []
  for (const address of addresses) {
    const page = reread.get(address)
    const moved = page ? pageDeltas(page, address, checked, logsTo) : deltas.get(address)
    const did = record(state, network, address, read.balances.get(address) ?? null, moved, head, at)
    if (did || rereadChanged.has(address)) {
      const key = stateKey(network, address)
      if (state.addresses[key]) state.addresses[key] = { ...state.addresses[key]!, unseen: true }
      changed.push(address)
    }
  }
  await refetchChanged(runtime, state, network, changed, options.priority, spend, reread)
  // Never backwards (a lagging node behind a load balancer): logs already counted are not counted twice.
  state.networks[network] = { checkedBlock: Math.max(readTo, checked) }
  return { units: spend.units, changed, warning }
}

/** Runs the check over `targets`; networks that fail are reported, the others still count. */
export async function runWatchCheck(
  runtime: CheckRuntime,
  state: ProfileWatchState,
  targets: WatchTarget[],
  options: WatchCheckOptions,
): Promise<WatchCheckResult> {
  const groups = byNetwork(targets)
  const networks = await Promise.all(
    [...groups].map(async ([network, addresses]) => {
      const base = { network, addresses: addresses.length }
      try {
        const r = await checkNetwork(runtime, state, network, addresses, options)
        const batched = runtime.client.batchSupport(network) !== false
        return { ...base, changed: r.changed.length, requests: r.units, batched, error: r.warning }
      } catch (error) {
        const message = errorMessage(error)
        const batched = runtime.client.batchSupport(network) !== false
        return { ...base, changed: 0, requests: 0, batched, error: message }
      }
    }),
  )
  const statuses: WatchStatus[] = [...groups].flatMap(([network, addresses]) =>
    addresses.map((a) => statusOf(network, a, state.addresses[stateKey(network, a)])),
  )
  return {
    checkedAt: new Date(options.now()).toISOString(),
    addresses: statuses.length,
    changed: networks.reduce((n, x) => n + x.changed, 0),
    requests: networks.reduce((n, x) => n + x.requests, 0),
    networks,
    statuses,
  }
}

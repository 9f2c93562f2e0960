import type { BalancesView, Priority, WatchCheckResult, WatchStatus } from '@shared/bridge/contract'
import { AppError } from '../util/app-error'
import type { RequestOptions, RpcCallSpec } from '../service/service-types'
import { MAX_SAFE_BIGINT, parseHexQuantity } from '@shared/domain/amount'
import { errorMessage } from '@shared/guards'
import { readTokenSnapshots, record, refetchChanged } from './watch-apply'
import { keepUnread } from './watch-unread'
import { refusalOf, fitsOneRange, planFor, readGap, UNNAMED_CAP, type GapOptions } from './watch-gap'
import { byNetwork, networkCost, type NetworkCheck, type WatchTarget } from './watch-cost'
import type { BlockRange } from './watch-plan'
import { addDeltas, balanceDeltas, movedSnapshot, snapshotOf, tokenTotals } from './watch-tokens'
import { logDeltas, parseLogs, transferLogCalls, type LogEntry } from './watch-logs'
import { sendCalls, type CheckRuntime, type Spend } from './watch-spend'
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
 * log range (days away) is read the cheaper complete way, planned in the profile's unit before
 * anything is sent (watch-plan.ts): log windows newest first, batched where a batch costs no
 * more, or each address's token balances against those the state holds (read once per address
 * when it is first watched). A check stopped by the quota reserve has read the newest blocks
 * and keeps the older ones as unread ranges, read at the next check (watch-unread.ts); so
 * does one that reaches the most its estimate said (watch-cost.ts): it never spends more.
 * Cannot be seen: a transaction that moves no coin or token and emits no transfer (a call
 * paid by someone else, a zero-fee transaction), and coin moves that cancel out exactly.
 */
export { byNetwork, watchCost, watchUnits, type WatchTarget } from './watch-cost'
export type { WatchProgress } from './watch-gap'

export interface WatchCheckOptions extends GapOptions {
  priority: Priority
  now: () => number
  /** A head learned from the check's balance call: a free height correction. */
  onHead?: (network: string, head: number) => void
}

interface NetworkOutcome {
  units: number
  changed: string[]
  warning: string | null
}

async function checkNetwork(check: NetworkCheck, options: WatchCheckOptions): Promise<NetworkOutcome> {
  const { runtime, state, network, addresses } = check
  const spend: Spend = { units: 0 }
  const request: RequestOptions = {
    priority: options.priority,
    attempts: options.priority === 'background' ? 1 : undefined,
  }
  const route = { runtime, network, request, spend }
  const net = state.networks[network]
  const checked = net?.checkedBlock ?? null
  const plan = runtime.balances.plan(network, addresses)
  // The node's newest mined block, beside the balances: a node may run a call on the block it
  // is still mining (seen on anvil: 2 of 6,800 calls a block ahead of eth_blockNumber in the
  // same batch), whose logs it cannot give yet; logs are read no further than this.
  const confirm: RpcCallSpec[] = checked === null ? [] : [{ method: 'eth_blockNumber', params: [] }]
  const k = plan.calls.length
  // The most this network's check may spend: what the estimate says on the head the app knows.
  const shown = networkCost(check, options).max
  // Where the blocks since fit one range, the filters go with the balances: as one batch, or
  // as single calls where a batch costs more (cheapestCalls, the one rule the estimate counts by).
  const withLogs = checked !== null && fitsOneRange(checked, options, network)
  const logCalls = withLogs ? transferLogCalls(addresses, checked + 1, 'latest') : []
  const items = await sendCalls(route, [...plan.calls, ...confirm, ...logCalls])
  let read = plan.read(items.slice(0, k))
  if (read.retry) read = read.retry.read(await sendCalls(route, read.retry.calls))
  const head = read.head
  if (head === null) throw new AppError('protocol', `The coin balances on ${network} came without a block number.`)
  options.onHead?.(network, head)
  const minedItem = items[k]
  const mined = confirm.length && minedItem?.ok ? parseHexQuantity(minedItem.result, MAX_SAFE_BIGINT) : null
  // Unconfirmed (the call failed): the newest block is left to the next check.
  const logsTo = Math.min(head, mined === null ? head - 1 : Number(mined))
  // Blocks mined since the head the app knew are priced by the same rule, on the head just read.
  const onHead = { ...options, headOf: (n: string) => (n === network ? logsTo : (options.headOf?.(n) ?? null)) }
  let budget = Math.max(shown, networkCost(check, onHead, withLogs).max)
  const at = new Date(options.now()).toISOString()
  const refetch = { runtime, state, network, priority: options.priority, spend }
  if (checked === null) {
    // The first check only sets the baseline: there is no "since" yet.
    for (const a of addresses)
      record(state, { network, address: a }, { balance: read.balances.get(a) ?? null, head, at })
    state.networks[network] = { checkedBlock: head }
    await readTokenSnapshots(refetch, addresses)
    return { units: spend.units, changed: [], warning: null }
  }
  const logs: LogEntry[] = []
  // Blocks not read yet: those since the last check (unless the first batch read them), then
  // what an earlier check left unread. With no block since, there is nothing new to read
  // (anvil refuses a range past the head).
  const ranges: BlockRange[] = []
  let hinted: number | null | undefined
  if (logsTo > checked) {
    const first = withLogs ? items.slice(k + confirm.length).map(parseLogs) : []
    if (withLogs && first.every((l) => l !== null)) {
      // Logs of blocks after the balances' block are left to the next check, which reads from there.
      logs.push(...first.flatMap((l) => l!).filter((l) => l.block === null || l.block <= logsTo))
    } else {
      // The first batch's filters refused: a range refusal tells the cap (null when it names none).
      const failed = first.findIndex((l) => l === null)
      const refused = withLogs ? refusalOf(items[k + confirm.length + failed]) : null
      hinted = refused?.kind === 'range' ? refused.cap : undefined
      if (typeof hinted === 'number') runtime.client.logs.noteCap(network, hinted)
      // A short gap's filters refused for their result count, or in words the app cannot read:
      // no cap tells what reading the range costs, so no estimate could bound it; the check reads
      // it to the quota reserve rather than leave a change unseen (docs/decisions/watch-cost-range.md).
      if (withLogs && refused?.kind !== 'range') budget = Number.POSITIVE_INFINITY
      ranges.push({ from: checked + 1, to: logsTo })
    }
  }
  ranges.push(...(net?.unread ?? []))
  const snapshots = addresses.every((a) => state.addresses[stateKey(network, a)]?.tokens !== undefined)
  if (typeof hinted === 'number') {
    // The refused first batch has been paid for (a gateway's 413 refuses the whole request, sent
    // again in parts): the cap it named plans the rest from what is spent, never narrower than
    // the estimate planned with, so a cap below that still stops at the bound.
    const plan = planFor({ runtime, network, addresses: addresses.length }, keepUnread(ranges), {
      cap: Math.max(hinted, UNNAMED_CAP),
      snapshots,
    })
    budget = Math.max(budget, spend.units + plan.units)
  }
  const ctx = { runtime, network, addresses, options, request, spend, budget }
  const gap = ranges.length > 0 ? await readGap(ctx, ranges, { hinted, snapshots }) : null
  logs.push(...(gap?.logs ?? []))
  const deltas = logDeltas(logs, new Set(addresses))
  const changed: string[] = []
  for (const address of addresses) {
    const key = stateKey(network, address)
    const found = tokensFound(state.addresses[key]?.tokens, deltas.get(address), gap?.balances?.get(address))
    const reading = { balance: read.balances.get(address) ?? null, moved: found.moved, head, at }
    const did = record(state, { network, address }, reading)
    const s = state.addresses[key]
    if (s && found.tokens) state.addresses[key] = { ...s, tokens: found.tokens }
    if (did) {
      state.addresses[key] = { ...state.addresses[key]!, unseen: true }
      changed.push(address)
    }
  }
  // What was read is kept before the refetches (which a used-up quota may refuse).
  // Never backwards (a lagging node behind a load balancer): logs already counted are not counted twice.
  const unread = gap?.unread ?? []
  state.networks[network] = { checkedBlock: Math.max(logsTo, checked), ...(unread.length > 0 ? { unread } : {}) }
  const refused = await refetchChanged(refetch, changed, gap?.balances ?? undefined)
  await readTokenSnapshots(refetch, addresses)
  const warnings = [gap?.warning, refused].filter((w): w is string => !!w)
  return { units: spend.units, changed, warning: warnings.length > 0 ? warnings.join('; ') : null }
}

/**
 * What the logs and (on the `balances` way) the data API's answer say an address's tokens
 * did: the amounts moved, and its token snapshot after them. The snapshot moves by the logs;
 * an answer replaces it, and what it holds beyond the snapshot so moved is what else moved.
 */
function tokensFound(
  tokens: Record<string, string> | undefined,
  logMoved: Map<string, bigint> | undefined,
  answer: BalancesView | undefined,
): { moved: Map<string, bigint> | undefined; tokens: Record<string, string> | undefined } {
  const afterLogs = movedSnapshot(tokens, logMoved)
  if (!answer || !afterLogs) return { moved: logMoved, tokens: afterLogs }
  const totals = tokenTotals(answer.items)
  return { moved: addDeltas(logMoved, balanceDeltas(afterLogs, totals)), tokens: snapshotOf(totals) }
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
        const r = await checkNetwork({ runtime, state, network, addresses }, options)
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

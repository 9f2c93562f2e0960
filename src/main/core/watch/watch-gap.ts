import type { BalancesView, Priority, RpcBatchItem } from '@shared/bridge/contract'
import { errorMessage } from '@shared/guards'
import { cheapestUnits } from '../service/cheapest-calls'
import { logRangeRefusalOfItem } from '../service/log-range-refusal'
import type { RequestOptions } from '../service/service-types'
import { parseLogs, transferLogCalls, type LogEntry } from './watch-logs'
import {
  blocksIn,
  newestFirst,
  planGap,
  windowsPerRequest,
  type BlockRange,
  type GapPlan,
  type GapWay,
} from './watch-plan'
import { sendCalls, unitsAboveReserve, type CheckRuntime, type Spend } from './watch-spend'
import { describeRanges, keepUnread, unreadBelow } from './watch-unread'

/**
 * Reading the blocks a check has not read yet when they are more than one log range: the
 * plan (watch-plan.ts) carried out, newest first, with progress, stopping cleanly at the
 * quota reserve. What is not read is kept as unread ranges (watch-unread.ts), read at the next check.
 */
export interface WatchProgress {
  network: string
  /** Blocks whose transfers are read, of `total`. */
  done: number
  total: number
  way: GapWay
  /** What the way taken costs, in the service's unit (the plan's cost, told before it is spent). */
  units: number
}

export interface GapOptions {
  /** The head the app already knows (the height watcher's), to plan before asking. */
  headOf?: (network: string) => number | null
  /** The largest log range the provider answers, or null while none was refused. */
  logCap?: (network: string) => number | null
  onProgress?: (progress: WatchProgress) => void
}

/**
 * The widest log range a documented provider caps at (10,000 blocks): a longer gap on a
 * provider whose cap is not known yet is not asked in the check's first batch, where three
 * refused filters would be spent; one filter asks first (`readGap`).
 */
const LARGE_GAP = 10_000

/** A cap to plan with when a provider refused a range without naming one: the smallest documented. */
export const UNNAMED_CAP = 10

/** Whether the blocks since the last check fit one log range, as far as the app knows now. */
export function fitsOneRange(checked: number, options: GapOptions, network: string): boolean {
  const cap = options.logCap?.(network) ?? null
  const head = options.headOf?.(network) ?? null
  if (cap === null) return head === null || head - checked < LARGE_GAP
  return head !== null && head - checked < cap
}

/**
 * What a refused `eth_getLogs` (an item of a batch) says: its range is too wide (with the cap
 * it names or implies by the range it suggests, null when neither), or it holds too many
 * results (the range may be fine; a read split by result count gets through); null: neither.
 */
export function refusalOf(
  item: RpcBatchItem | undefined,
): { kind: 'range'; cap: number | null } | { kind: 'results' } | null {
  const refusal = item ? logRangeRefusalOfItem(item) : null
  if (!refusal) return null
  if (refusal.kind === 'results') return { kind: 'results' }
  const suggested = refusal.suggested ? refusal.suggested.to - refusal.suggested.from + 1 : null
  return { kind: 'range', cap: refusal.cap ?? suggested }
}

/** One network's check, as the gap reader needs it. */
export interface GapContext {
  runtime: CheckRuntime
  network: string
  addresses: string[]
  options: GapOptions & { priority: Priority }
  request: RequestOptions
  spend: Spend
  /** The most the network's check may spend, `spend` included: the estimate's bound (watch-cost.ts). */
  budget: number
}

/** Units the check may still spend: above the quota reserve and within its estimate. */
function room(ctx: GapContext): { units: number; by: 'reserve' | 'estimate' } {
  const reserve = unitsAboveReserve(ctx.runtime)
  const estimate = ctx.budget - ctx.spend.units
  return estimate < reserve ? { units: estimate, by: 'estimate' } : { units: reserve, by: 'reserve' }
}

/** Why a read stopped short of its ranges, in words. */
const STOPPED = {
  reserve: 'stopped at the quota reserve',
  estimate: 'stopped at the most its estimate said it would spend',
} as const

/** The plan of `ranges` on what the client knows now: its unit, its batch size, the cap. */
export function planFor(
  ctx: Pick<GapContext, 'runtime' | 'network'> & { addresses: number },
  ranges: readonly BlockRange[],
  known: { cap: number | null; snapshots: boolean },
): GapPlan {
  const { runtime, network } = ctx
  return planGap({
    ranges,
    cap: known.cap,
    addresses: ctx.addresses,
    snapshots: known.snapshots,
    batchSize: runtime.client.batchSize(network),
    requestUnits: (calls) => cheapestUnits(runtime.client, network, calls),
  })
}

/**
 * Reads one window's transfer logs, each filter split further if the provider still refuses
 * it (its cap smaller than known, too many results): an error text when it cannot be read.
 */
async function readWindow(
  ctx: GapContext,
  window: BlockRange,
  /** Which of the three filters to read. */
  filters: readonly number[],
): Promise<LogEntry[] | string> {
  const meter = { requests: 0, units: 0 }
  try {
    const logs: LogEntry[] = []
    const calls = transferLogCalls(ctx.addresses, window.from, window.to)
    for (const call of filters.map((i) => calls[i]!)) {
      const { topics } = call.params[0] as { topics: (string | string[] | null)[] }
      const query = { network: ctx.network, fromBlock: window.from, toBlock: window.to, topics }
      const maxCalls = ctx.budget - ctx.spend.units - meter.units
      const answer = await ctx.runtime.client.logs.getLogsChunked(query, { ...ctx.request, meter, maxCalls })
      logs.push(...(parseLogs({ ok: true, result: answer }) ?? []))
    }
    return logs
  } catch (error) {
    return errorMessage(error)
  } finally {
    ctx.spend.units += meter.units
  }
}

/**
 * One filter over the newest range, sent alone: a provider that takes the range answers it;
 * one that refuses it says so, usually naming its cap, for the price of one call instead of three.
 */
async function probe(
  ctx: GapContext,
  range: BlockRange,
): Promise<{ logs: LogEntry[] } | { cap: number | null } | { results: true } | { error: string }> {
  const [first] = transferLogCalls(ctx.addresses, range.from, range.to)
  const [item] = await sendCalls(ctx, [first!])
  const logs = parseLogs(item)
  if (logs !== null) return { logs }
  const refusal = refusalOf(item)
  if (refusal?.kind === 'range') return { cap: refusal.cap }
  if (refusal?.kind === 'results') return { results: true }
  return { error: item && !item.ok ? item.message : 'no list of logs in the answer' }
}

export interface GapRead {
  logs: LogEntry[]
  /** The `balances` way: every address's answer (null on the `logs` way). */
  balances: Map<string, BalancesView> | null
  /** What is still unread, newest first (empty when all was read). */
  unread: BlockRange[]
  warning: string | null
}

/** Reads `ranges` (blocks not read yet) the cheaper complete way. */
export async function readGap(
  ctx: GapContext,
  ranges: readonly BlockRange[],
  /** `hinted`: the cap the check's first batch learnt (null: refused, none named; undefined: not asked). */
  known: { hinted?: number | null; snapshots: boolean },
): Promise<GapRead> {
  const { runtime, network } = ctx
  const out: GapRead = { logs: [], balances: null, unread: keepUnread(ranges), warning: null }
  let cap = ctx.options.logCap?.(network) ?? null
  // Refused without a cap named: plan with the smallest documented one (the other way's cost is known).
  if (cap === null && known.hinted !== undefined) cap = known.hinted ?? UNNAMED_CAP
  let todo = out.unread
  if (cap === null && todo.length > 0) {
    const top = todo[0]!
    if (room(ctx).units < 3) {
      out.warning = `${STOPPED[room(ctx).by]} before token transfers of ${describeRanges(todo)}: the next check reads them`
      return out
    }
    const asked = await probe(ctx, top)
    const rest = 'logs' in asked ? await readWindow(ctx, top, [1, 2]) : null
    const error = 'error' in asked ? asked.error : typeof rest === 'string' ? rest : null
    if (error !== null) {
      out.warning = `token transfers of ${describeRanges(todo)} could not be read (${error}); the next check reads them`
      return out
    }
    if ('logs' in asked) {
      // The provider took the whole newest range: the rest (older unread ranges) one window each.
      out.logs.push(...asked.logs, ...(rest as LogEntry[]))
      todo = out.unread = todo.slice(1)
    } else {
      if ('cap' in asked && asked.cap !== null) runtime.client.logs.noteCap(network, asked.cap)
      // Too many results at once (the cap stays unknown): one window a range, read in parts
      // that shrink as the provider asks (getLogsChunked), so the gap is read, never skipped.
      if ('cap' in asked) cap = asked.cap ?? UNNAMED_CAP
    }
  }
  if (todo.length === 0) return out
  const plan = planFor({ ...ctx, addresses: ctx.addresses.length }, todo, { cap, snapshots: known.snapshots })
  const total = blocksIn(todo)
  // The balances way is all or nothing: without room for all of it above the reserve (or when
  // an answer cannot be trusted), the log windows go, newest first, as far as the room allows.
  const way = plan.way === 'balances' && room(ctx).units >= plan.units ? 'balances' : 'logs'
  const units = way === plan.way ? plan.units : plan.otherUnits
  const progress = (done: number, w: GapWay = way, u = units): void =>
    ctx.options.onProgress?.({ network, done, total, way: w, units: u })
  progress(0)
  if (way === 'balances') {
    const read = await readBalances(ctx)
    if (read instanceof Map) {
      out.balances = read
      out.unread = []
      progress(total)
      return out
    }
    progress(0, 'logs', plan.otherUnits)
    const logs = await readWindows(ctx, todo, cap, (done) => progress(done, 'logs', plan.otherUnits))
    return {
      ...logs,
      logs: [...out.logs, ...logs.logs],
      warning: logs.warning ?? `${read}; token transfers read instead`,
    }
  }
  const logs = await readWindows(ctx, todo, cap, progress)
  return { ...logs, logs: [...out.logs, ...logs.logs] }
}

/** Every address's token balances from the data API, or why they cannot be trusted. */
async function readBalances(ctx: GapContext): Promise<Map<string, BalancesView> | string> {
  const views = new Map<string, BalancesView>()
  const problems: string[] = []
  await Promise.all(
    ctx.addresses.map(async (address) => {
      try {
        const view = await ctx.runtime.data.balances({
          network: ctx.network,
          address,
          priority: ctx.options.priority,
          scope: 'watch-check',
          refresh: true,
        })
        ctx.spend.units += 1
        if (view.source !== 'network') problems.push(`the balances of ${address} were not answered`)
        else if (view.unreadable.length > 0) problems.push(`the balances of ${address} hold unreadable items`)
        else views.set(address, view)
      } catch (error) {
        problems.push(`the balances of ${address} could not be read (${errorMessage(error)})`)
      }
    }),
  )
  return problems.length === 0 ? views : problems[0]!
}

/**
 * The log windows of `ranges`, newest first, whole windows per request up to the batch size
 * the endpoint takes (cheapest-calls.ts sends single calls where a batch costs more). Stops
 * at the quota reserve, or at a window that cannot be read; what is below is left unread.
 */
async function readWindows(
  ctx: GapContext,
  ranges: readonly BlockRange[],
  cap: number | null,
  progress: (done: number) => void,
): Promise<GapRead> {
  const { runtime, network } = ctx
  const windows = newestFirst(ranges, cap)
  const held: BlockRange[] = []
  const logs: LogEntry[] = []
  let low = Infinity
  let done = 0
  let stop: string | null = null
  for (;;) {
    const perRequest = windowsPerRequest(runtime.client.batchSize(network))
    while (held.length < perRequest) {
      const next = windows.next()
      if (next.done) break
      held.push(next.value)
    }
    if (held.length === 0) break
    const left = room(ctx)
    let n = Math.min(perRequest, held.length)
    while (n > 0 && cheapestUnits(runtime.client, network, n * 3) > left.units) n -= 1
    if (n === 0) {
      stop = left.by
      break
    }
    const group = held.splice(0, n)
    let items: RpcBatchItem[]
    try {
      const calls = group.flatMap((w) => transferLogCalls(ctx.addresses, w.from, w.to))
      items = await sendCalls(ctx, calls)
    } catch (error) {
      stop = errorMessage(error)
      break
    }
    for (const [i, w] of group.entries()) {
      const got = await windowLogs(ctx, w, items.slice(i * 3, i * 3 + 3))
      if (typeof got === 'string') {
        stop = got
        break
      }
      logs.push(...got)
      low = w.from
      done += w.to - w.from + 1
      progress(done)
    }
    if (stop !== null) break
  }
  const unread = keepUnread(unreadBelow(ranges, low))
  const warning =
    unread.length === 0
      ? null
      : stop === 'reserve' || stop === 'estimate' || stop === null
        ? `${STOPPED[stop ?? 'reserve']} with token transfers read newest first${Number.isFinite(low) ? ` down to block ${low.toLocaleString('en')}` : ''}; ${describeRanges(unread)} still unread: the next check reads them`
        : `token transfers of ${describeRanges(unread)} could not be read (${stop}); the next check reads them`
  return { logs, balances: null, unread, warning }
}

/** One window's logs from its three answers, filters the provider refused read again in parts. */
async function windowLogs(ctx: GapContext, w: BlockRange, items: RpcBatchItem[]): Promise<LogEntry[] | string> {
  const parsed = items.map(parseLogs)
  const failed = parsed.flatMap((l, k) => (l === null ? [k] : []))
  if (failed.length === 0) return parsed.flatMap((l) => l!)
  for (const k of failed) {
    const refusal = refusalOf(items[k])
    if (refusal === null) {
      const item = items[k]
      return item && !item.ok ? item.message : 'no list of logs in the answer'
    }
    if (refusal.kind === 'range' && refusal.cap !== null) ctx.runtime.client.logs.noteCap(ctx.network, refusal.cap)
  }
  const again = await readWindow(ctx, w, failed)
  if (typeof again === 'string') return again
  return [...parsed.flatMap((l) => l ?? []), ...again]
}

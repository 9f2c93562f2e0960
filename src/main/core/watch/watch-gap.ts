import type { Priority, RpcBatchItem, TransactionsPage } from '@shared/bridge/contract'
import { errorMessage } from '@shared/guards'
import { logRangeRefusalOfItem } from '../service/log-range-refusal'
import type { RequestOptions } from '../service/service-types'
import { newTransactions } from './watch-apply'
import { parseLogs, transferLogCalls, type LogEntry } from './watch-logs'
import { blockWindows, planGap, type GapPlan, type GapWay } from './watch-plan'
import { rpcUnits, sendCalls, unitsAboveReserve, type CheckRuntime, type Spend } from './watch-spend'

/**
 * Reading the blocks since the last check when they are more than one log range: the plan
 * (watch-plan.ts) carried out, with progress, stopping cleanly at the quota reserve. What is
 * read moves the network's checked block; what is not is read at the next check.
 */
export interface WatchProgress {
  network: string
  /** Blocks whose transfers are read, of `total`. */
  done: number
  total: number
  way: GapWay
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
export const LARGE_GAP = 10_000

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

export function planFor(
  runtime: CheckRuntime,
  network: string,
  addresses: readonly string[],
  checked: number,
  head: number,
  options: GapOptions,
  cap: number | null = options.logCap?.(network) ?? null,
): GapPlan {
  return planGap({
    from: checked + 1,
    to: head,
    cap,
    addresses: addresses.length,
    rpcUnits: (calls) => rpcUnits(runtime, network, calls),
  })
}

/**
 * Reads one window's transfer logs, each filter split further if the provider still refuses
 * it (its cap smaller than known, too many results): an error text when it cannot be read.
 */
async function readWindow(
  runtime: CheckRuntime,
  network: string,
  addresses: string[],
  window: { from: number; to: number },
  request: RequestOptions,
  spend: Spend,
  /** Which of the three filters to read (all by default). */
  filters: readonly number[] = [0, 1, 2],
): Promise<LogEntry[] | string> {
  const meter = { requests: 0, units: 0 }
  try {
    const logs: LogEntry[] = []
    const calls = transferLogCalls(addresses, window.from, window.to)
    for (const call of filters.map((i) => calls[i]!)) {
      const { topics } = call.params[0] as { topics: (string | string[] | null)[] }
      const query = { network, fromBlock: window.from, toBlock: window.to, topics }
      const answer = await runtime.client.logs.getLogsChunked(query, { ...request, meter })
      logs.push(...(parseLogs({ ok: true, result: answer }) ?? []))
    }
    return logs
  } catch (error) {
    return errorMessage(error)
  } finally {
    spend.units += meter.units
  }
}

/**
 * One filter over the whole gap, sent alone: a provider that takes the range answers it (the
 * other two filters follow over the same range); one that refuses it says so, usually naming
 * its cap, for the price of one call instead of three.
 */
async function probe(
  runtime: CheckRuntime,
  network: string,
  addresses: string[],
  checked: number,
  head: number,
  request: RequestOptions,
  spend: Spend,
): Promise<{ logs: LogEntry[] } | { cap: number | null } | { results: true } | { error: string }> {
  const [first] = transferLogCalls(addresses, checked + 1, head)
  const [item] = await sendCalls(runtime, network, [first!], request, spend)
  const logs = parseLogs(item)
  if (logs !== null) return { logs }
  const refusal = refusalOf(item)
  if (refusal?.kind === 'range') return { cap: refusal.cap }
  if (refusal?.kind === 'results') return { results: true }
  return { error: item && !item.ok ? item.message : 'no list of logs in the answer' }
}

export interface GapRead {
  logs: LogEntry[]
  /** First pages re-read (the `reread` way), and the addresses they show changed. */
  pages: Map<string, TransactionsPage>
  changed: Set<string>
  /** The last block whose transfers are read. */
  readTo: number
  warning: string | null
}

export async function readGap(
  runtime: CheckRuntime,
  network: string,
  addresses: string[],
  checked: number,
  head: number,
  options: GapOptions & { priority: Priority },
  request: RequestOptions,
  spend: Spend,
  /** What the check's first batch learnt: the cap a refusal named (null: refused, none named; undefined: not asked). */
  hinted?: number | null,
): Promise<GapRead> {
  const out: GapRead = { logs: [], pages: new Map(), changed: new Set(), readTo: checked, warning: null }
  let cap = options.logCap?.(network) ?? null
  // Refused without a cap named: plan with the smallest documented one (the re-read's cost is known).
  if (cap === null && hinted !== undefined) cap = hinted ?? UNNAMED_CAP
  if (cap === null) {
    const asked = await probe(runtime, network, addresses, checked, head, request, spend)
    const rest =
      'logs' in asked
        ? await readWindow(runtime, network, addresses, { from: checked + 1, to: head }, request, spend, [1, 2])
        : null
    const error = 'error' in asked ? asked.error : typeof rest === 'string' ? rest : null
    if (error !== null) {
      out.warning = `token transfers since block ${checked + 1} could not be read (${error}); the next check reads them again`
      return out
    }
    if ('logs' in asked) {
      out.logs = [...asked.logs, ...(rest as LogEntry[])]
      out.readTo = head
      return out
    }
    if ('cap' in asked && asked.cap !== null) runtime.client.logs.noteCap(network, asked.cap)
    // Too many results at once (the cap stays unknown): one window over the gap, read in parts
    // that shrink as the provider asks (getLogsChunked), so the gap is read, never skipped.
    if ('cap' in asked) cap = asked.cap ?? UNNAMED_CAP
  }
  const plan = planFor(runtime, network, addresses, checked, head, options, cap)
  const total = head - checked
  // A re-read is all or nothing (the checked block is one per network): without room for all
  // of it above the reserve, the log windows go as far as the room allows instead.
  const way = plan.way === 'reread' && unitsAboveReserve(runtime) >= plan.units ? 'reread' : 'logs'
  const progress = (done: number): void => options.onProgress?.({ network, done, total, way })
  progress(0)
  if (way === 'reread') {
    await Promise.all(
      addresses.map(async (address) => {
        const page = await runtime.data.transactions({
          network,
          address,
          cursor: null,
          priority: options.priority,
          scope: 'watch-check',
          refresh: true,
        })
        spend.units += 1
        out.pages.set(address, page)
        if (newTransactions(page, checked).fresh > 0) out.changed.add(address)
      }),
    )
    out.readTo = head
    progress(total)
    return out
  }
  const windows =
    plan.way === 'logs' ? plan.windows : blockWindows(checked + 1, head, options.logCap?.(network) ?? null)
  for (const w of windows) {
    if (unitsAboveReserve(runtime) < rpcUnits(runtime, network, 3)) {
      out.warning = `stopped at the quota reserve with token transfers read to block ${out.readTo} of ${head}; the next check goes on from there`
      break
    }
    const got = await readWindow(runtime, network, addresses, w, request, spend)
    if (typeof got === 'string') {
      out.warning = `token transfers since block ${out.readTo + 1} could not be read (${got}); the next check reads them again`
      break
    }
    out.logs.push(...got)
    out.readTo = w.to
    progress(out.readTo - checked)
  }
  return out
}

import type { Priority, TransactionsPage } from '../../../shared/bridge/contract'
import type { RequestOptions } from '../service/service-client'
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

/** Whether the blocks since the last check fit one log range, as far as the app knows now. */
export function fitsOneRange(checked: number, options: GapOptions, network: string): boolean {
  const cap = options.logCap?.(network) ?? null
  if (cap === null) return true
  const head = options.headOf?.(network) ?? null
  return head !== null && head - checked < cap
}

export function planFor(
  runtime: CheckRuntime,
  network: string,
  addresses: readonly string[],
  checked: number,
  head: number,
  options: GapOptions,
): GapPlan {
  return planGap({
    from: checked + 1,
    to: head,
    cap: options.logCap?.(network) ?? null,
    addresses: addresses.length,
    rpcUnits: (calls) => rpcUnits(runtime, network, calls),
  })
}

/** Reads one window's transfer logs; an error text when the provider refused any of the three. */
async function readWindow(
  runtime: CheckRuntime,
  network: string,
  addresses: string[],
  window: { from: number; to: number },
  request: RequestOptions,
  spend: Spend,
): Promise<LogEntry[] | string> {
  const calls = transferLogCalls(addresses, window.from, window.to)
  const items = await sendCalls(runtime, network, calls, request, spend)
  const logs: LogEntry[] = []
  for (const item of items) {
    const parsed = parseLogs(item)
    if (parsed === null) return item && !item.ok ? item.message : 'no list of logs in the answer'
    logs.push(...parsed)
  }
  return logs
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
): Promise<GapRead> {
  const plan = planFor(runtime, network, addresses, checked, head, options)
  const out: GapRead = { logs: [], pages: new Map(), changed: new Set(), readTo: checked, warning: null }
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

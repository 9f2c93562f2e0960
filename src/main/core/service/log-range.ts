import type { Priority } from '@shared/bridge/contract'
import { AppError } from '../util/app-error'
import { logRangeRefusal, type LogRangeRefusal } from './log-range-refusal'
import type { RequestOptions, RpcCallSpec } from './service-types'

/** One `eth_getLogs` filter over an inclusive block range; `topics` may hold arrays (any of). */
export interface LogQuery {
  network: string
  fromBlock: number
  toBlock: number
  address?: string | string[]
  topics?: (string | string[] | null)[]
}

export interface LogProgress {
  /** Blocks read so far, from `fromBlock` on, and of how many. */
  doneBlocks: number
  totalBlocks: number
  /** `eth_getLogs` calls sent so far, refused ones included. */
  calls: number
}

export interface ChunkOptions {
  priority: Priority | (() => Priority)
  signal?: AbortSignal
  attempts?: number
  meter?: RequestOptions['meter']
  onProgress?: (progress: LogProgress) => void
  /**
   * Each answered part as it comes (before onProgress): a caller that saves as it goes loses no
   * paid-for part. The next part is asked once its promise (a save) settles.
   */
  onPart?: (logs: unknown[], fromBlock: number, toBlock: number) => void | Promise<void>
  /** The most `eth_getLogs` calls the read may send (parts re-asked after a refusal included); default no limit. */
  maxCalls?: number
}

type RpcCall = (network: string, call: RpcCallSpec, options: RequestOptions) => Promise<unknown>

/** Where LogRanges keeps the caps it learnt (learnt-limits-store.ts); none: for the session only. */
export interface LogCapsMemory {
  load(network: string): number | null
  save(network: string, cap: number): void
}

const hex = (n: number): string => `0x${n.toString(16)}`

/**
 * `eth_getLogs` over any block range, on any provider's range cap. A range refused for its
 * size (log-range-refusal.ts) is split: to the range the provider suggests when it names one,
 * to its cap when it names that, else in half, until a part is taken. A range cap is remembered
 * per network for this profile (the client lives as long as the profile; with a memory, across
 * runs too), so later reads and cost previews (`plannedLogCalls`) start at the size that works. A refusal by result count is
 * about where the logs are, not the range: it shrinks the current read only, which grows back
 * after two answers in a row (doubling, never past a known cap). Blocks are read in order, each
 * exactly once: a part starts where the last answered part ended, so no block is skipped.
 */
export class LogRanges {
  readonly #rpc: RpcCall
  /** Per network: the most blocks one request may span (learnt from a range refusal). */
  readonly #caps = new Map<string, number | null>()
  readonly #memory: LogCapsMemory | undefined

  constructor(rpc: RpcCall, memory?: LogCapsMemory) {
    this.#rpc = rpc
    this.#memory = memory
  }

  /** The range cap learnt for `network` (this run, or saved by an earlier one), null while none has been met. */
  learntCap(network: string): number | null {
    return this.#cap(network) ?? null
  }

  /** Remembers a cap met elsewhere (an `eth_getLogs` refused inside a batch), never raising a known one. */
  noteCap(network: string, cap: number): void {
    if (Number.isSafeInteger(cap) && cap >= 1) this.#narrow(network, cap)
  }

  #cap(network: string): number | undefined {
    if (!this.#caps.has(network)) {
      const saved = this.#memory?.load(network) ?? null
      this.#caps.set(network, saved !== null && Number.isSafeInteger(saved) && saved >= 1 ? saved : null)
    }
    return this.#caps.get(network) ?? undefined
  }

  /** A range cap met: kept (and saved) when narrower than the one known. */
  #narrow(network: string, cap: number): void {
    const known = this.#cap(network)
    if (known !== undefined && known <= cap) return
    this.#caps.set(network, cap)
    this.#memory?.save(network, cap)
  }

  /**
   * `eth_getLogs` calls a read of [fromBlock, toBlock] is planned to take (at least 1 for a
   * non-empty range): in parts of the learnt cap, or of `assumedCap` while none is learnt (a
   * preview that must not promise too little can assume the smallest caps providers set).
   */
  plannedLogCalls(fromBlock: number, toBlock: number, network: string, assumedCap = Infinity): number {
    const span = toBlock - fromBlock + 1
    if (!(span > 0)) return 0
    const cap = this.#cap(network) ?? assumedCap
    return Number.isFinite(cap) && cap >= 1 ? Math.ceil(span / cap) : 1
  }

  /** Every log of the query, in block order as the provider returns them per part. */
  async getLogsChunked(query: LogQuery, options: ChunkOptions): Promise<unknown[]> {
    const { network, fromBlock, toBlock } = query
    if (!Number.isSafeInteger(fromBlock) || !Number.isSafeInteger(toBlock) || fromBlock < 0 || toBlock < fromBlock)
      throw new AppError('invalid-input', `The block range ${fromBlock}-${toBlock} is not a range of blocks.`)
    const total = toBlock - fromBlock + 1
    const request: RequestOptions = {
      priority: options.priority,
      signal: options.signal,
      attempts: options.attempts,
      meter: options.meter,
    }
    const logs: unknown[] = []
    let cursor = fromBlock
    let size = Math.min(total, this.#cap(network) ?? total)
    let calls = 0
    /** Parts answered in a row at this size since the last refusal. */
    let streak = 0
    while (cursor <= toBlock) {
      const end = Math.min(toBlock, cursor + size - 1)
      const span = end - cursor + 1
      if (options.maxCalls !== undefined && calls >= options.maxCalls)
        throw new AppError(
          'cancelled',
          `stopped after ${calls} of the ${options.maxCalls} eth_getLogs calls this read may send, at block ${cursor.toLocaleString('en')}`,
        )
      calls += 1
      let answer: unknown
      try {
        answer = await this.#rpc(network, this.#call(query, cursor, end), request)
      } catch (error) {
        const refusal = logRangeRefusal(error)
        if (!refusal || span === 1) throw error
        size = nextSize(refusal, cursor, span)
        streak = 0
        if (refusal.kind === 'range') this.#narrow(network, size)
        continue
      }
      if (!Array.isArray(answer))
        throw new AppError(
          'protocol',
          `The RPC endpoint answered eth_getLogs for blocks ${cursor}-${end} on ${network} with something other than a list.`,
        )
      for (const log of answer) logs.push(log)
      await options.onPart?.(answer, cursor, end)
      cursor = end + 1
      options.onProgress?.({ doneBlocks: cursor - fromBlock, totalBlocks: total, calls })
      // A part shrunk for its result count grows back after two answers in a row (so a dense
      // stretch does not alternate refusals and answers); never past a range cap the provider set.
      if (++streak >= 2) {
        size = Math.min(size * 2, this.#cap(network) ?? Infinity)
        streak = 0
      }
    }
    return logs
  }

  #call(query: LogQuery, from: number, to: number): RpcCallSpec {
    const filter: Record<string, unknown> = { fromBlock: hex(from), toBlock: hex(to) }
    if (query.address !== undefined) filter.address = query.address
    if (query.topics !== undefined) filter.topics = query.topics
    return { method: 'eth_getLogs', params: [filter] }
  }
}

/**
 * The span to try next after a refusal of `span` blocks from `cursor`: the provider's suggested
 * range when it starts here (or its length otherwise), else its named cap, else half. A hint
 * that is not smaller than what was refused is ignored (halving then); at least one block.
 */
function nextSize(refusal: LogRangeRefusal, cursor: number, span: number): number {
  const s = refusal.suggested
  const suggested = s ? (s.from === cursor ? s.to - cursor + 1 : s.to - s.from + 1) : undefined
  const half = Math.ceil(span / 2)
  const hint = [suggested, refusal.cap].find((n) => n !== undefined && n >= 1 && n < span)
  return Math.max(1, Math.min(hint ?? half, span - 1))
}

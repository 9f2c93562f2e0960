import type { AppError } from '../util/app-error'
import type { Clock } from '../util/clock'

/** Most calls a batch carries: the sandbox's limit, and common among providers (many allow fewer). */
export const MAX_BATCH_CALLS = 100
/** After a size refusal, a larger batch is tried again this often (the provider may have raised its cap). */
export const PROBE_EVERY_MS = 10 * 60_000
/** Once the cap is known to the call, a probe only checks now and then whether it was raised. */
const PROBE_KNOWN_EVERY_MS = 60 * 60_000

export type BatchRefusalReason = 'unsupported' | 'size' | 'unknown'

/**
 * Why a provider refused a batch, from its words: too large (geth's "batch too large", Besu's
 * "exceeds max batch size 50", an HTTP 413, "at most 100 calls"), not supported at all ("batch
 * requests are not supported"), or unknown (a single result instead of a list, an HTTP 400
 * with no words): unknown is read as a size refusal, so the batch is halved, not given up.
 */
function batchRefusalReason(error: AppError): { reason: BatchRefusalReason; cap?: number } {
  const data = error.details.data
  const text = `${error.message} ${typeof data === 'string' ? data : data === undefined ? '' : JSON.stringify(data)}`
  if (/too (?:large|big|long|many)|exceed|max(?:imum)?|at most|more than|limit|HTTP 413|size/i.test(text)) {
    const m =
      /(?:at most|max(?:imum)?(?: batch)?(?: size)?(?: (?:of|is))?|limit(?:ed)? (?:of|to|is)|up to|more than|exceeds?(?: the)?(?: max(?:imum)?| limit)?(?: batch)?(?: size)?(?: of)?)\s*:?\s*(\d{1,6})\b/i.exec(
        text,
      )
    const cap = m ? Number(m[1]) : undefined
    return cap !== undefined && cap >= 1 ? { reason: 'size', cap } : { reason: 'size' }
  }
  if (/not (?:be )?(?:supported|allowed|enabled|available)|unsupported|disabled|does not support|no batch/i.test(text))
    return { reason: 'unsupported' }
  return { reason: 'unknown' }
}

/** What is kept across runs for a network that takes batches ('none' is not: it is tried again). */
export interface SavedBatchSizes {
  limit: number
  worked: number
  refused: number | null
  probeAt: number
}

/** Where BatchSizes keeps what it learnt (learnt-limits-store.ts); none: for the session only. */
export interface BatchSizesMemory {
  load(network: string): SavedBatchSizes | null
  save(network: string, sizes: SavedBatchSizes): void
}

interface NetworkSizes {
  /** 'none': the endpoint takes no batch at all (said so, or refused a batch of 2). */
  mode: 'untried' | 'batches' | 'none'
  /** The size batches are sent in now. */
  limit: number
  /** The largest size that worked. */
  worked: number
  /** The smallest size refused since the last raise; null while none was. */
  refused: number | null
  /** When a larger batch may next be tried. */
  probeAt: number
}

/**
 * The batch size each network's RPC endpoint takes, for one profile. A batch refused for its
 * size is split (to the size the provider names, else half) and the smaller size kept; the
 * largest size that worked is remembered, and now and then a size between it and the refused
 * one is tried, so a cap that was raised, or lies between the two, is found. A size refusal
 * never turns batching off: only an endpoint that says batches are not supported, or refuses a
 * batch of 2, is sent single calls (for the rest of the session). With a memory, what was
 * learnt about a network that takes batches is saved and is where the next run starts, probes
 * included; 'single calls' is not saved, so each run asks once more.
 */
export class BatchSizes {
  readonly #clock: Clock
  readonly #memory: BatchSizesMemory | undefined
  readonly #nets = new Map<string, NetworkSizes>()

  constructor(clock: Clock, memory?: BatchSizesMemory) {
    this.#clock = clock
    this.#memory = memory
  }

  #get(network: string): NetworkSizes {
    let s = this.#nets.get(network)
    if (!s) this.#nets.set(network, (s = this.#loaded(network)))
    return s
  }

  #loaded(network: string): NetworkSizes {
    const saved = this.#memory?.load(network)
    if (!saved) return { mode: 'untried', limit: MAX_BATCH_CALLS, worked: 0, refused: null, probeAt: 0 }
    const limit = Math.max(2, Math.min(MAX_BATCH_CALLS, saved.limit))
    const refused = saved.refused !== null && saved.refused > limit ? saved.refused : null
    // A probe time further off than any this class sets means the clock went back: probe on schedule.
    const probeAt = Math.min(saved.probeAt, this.#clock.now() + PROBE_KNOWN_EVERY_MS)
    return { mode: 'batches', limit, worked: Math.min(saved.worked, MAX_BATCH_CALLS), refused, probeAt }
  }

  #save(network: string, s: NetworkSizes): void {
    if (s.mode === 'batches')
      this.#memory?.save(network, { limit: s.limit, worked: s.worked, refused: s.refused, probeAt: s.probeAt })
  }

  /** Whether `network`'s endpoint takes batches: null until one was tried. */
  support(network: string): boolean | null {
    const mode = this.#get(network).mode
    return mode === 'untried' ? null : mode === 'batches'
  }

  /** The batch size planned for cost previews: 1 where batches are refused. */
  planned(network: string): number {
    const s = this.#get(network)
    return s.mode === 'none' ? 1 : s.limit
  }

  /**
   * The size to send the next batches in, and whether the first should go alone (the endpoint is
   * untried, or this is a probe of a larger size): a refusal is then learnt from one request.
   */
  next(network: string, calls: number): { size: number; alone: boolean } {
    const s = this.#get(network)
    if (s.mode === 'none') return { size: 1, alone: false }
    const now = this.#clock.now()
    if (s.refused !== null && calls > s.limit && now >= s.probeAt) {
      const gap = s.refused - s.limit
      const probe = Math.min(MAX_BATCH_CALLS, gap > 1 ? Math.floor((s.limit + s.refused) / 2) : s.refused)
      if (probe > s.limit) {
        s.probeAt = now + (gap > 1 ? PROBE_EVERY_MS : PROBE_KNOWN_EVERY_MS)
        return { size: probe, alone: true }
      }
    }
    return { size: s.limit, alone: s.mode === 'untried' }
  }

  worked(network: string, size: number): void {
    const s = this.#get(network)
    // Saved only when something changed: most batches change nothing.
    let changed = s.mode !== 'batches' || size > s.worked
    s.mode = 'batches'
    s.worked = Math.max(s.worked, size)
    if (size > s.limit) {
      // A probe was taken: there may be more room, so the next call may probe again at once.
      s.limit = size
      s.probeAt = this.#clock.now()
      changed = true
    }
    if (s.refused !== null && size >= s.refused) {
      s.refused = null
      changed = true
    }
    if (changed) this.#save(network, s)
  }

  /** A batch of `size` was refused: the size to split it into, or 'none' for single calls. */
  refused(network: string, size: number, error: AppError): number | 'none' {
    const s = this.#get(network)
    const { reason, cap } = batchRefusalReason(error)
    if (reason === 'unsupported' || size <= 2) {
      s.mode = 'none'
      return 'none'
    }
    s.refused = Math.min(s.refused ?? Infinity, size)
    s.probeAt = this.#clock.now() + PROBE_EVERY_MS
    const split = cap !== undefined && cap < size ? cap : Math.floor(size / 2)
    // Never below what already worked at a size under this one (a probe above it was refused).
    const floor = s.worked < size ? s.worked : 0
    s.limit = Math.min(size - 1, Math.max(2, split, floor))
    // A network that never took a batch keeps 'untried' (its next batch goes alone); it is saved once one worked.
    this.#save(network, s)
    return s.limit
  }
}

import type { ChainIdMemory } from '../height/chain-ids'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { z } from 'zod'
import { errorMessage } from '@shared/guards'
import type { Logger } from '../util/logger'
import { VersionedFile, type FileFaults } from '../util/versioned-file'
import { MAX_BATCH_CALLS, type BatchSizesMemory } from './batch-sizes'
import type { LogCapsMemory } from './log-range'
import { TRACE_LEARNT_KEPT_MS, traceLearntSchema, type TraceLearnt, type TracesMemory } from '../entities/trace-support'

const VERSION = 1
/** A saved log-range cap is trusted this long, then learnt again (the provider may have raised it). */
export const LOG_CAP_KEPT_MS = 7 * 24 * 60 * 60_000

const count = z.number().int().min(0).max(MAX_BATCH_CALLS)
const batchSchema = z.object({
  limit: count.min(2),
  worked: count,
  refused: count.min(3).nullable(),
  probeAt: z.number().int().min(0),
})
const networkSchema = z.object({
  /** Which RPC address this was learnt from (a hash): another address starts afresh. */
  endpoint: z.string().regex(/^[0-9a-f]{16}$/),
  batch: batchSchema.optional(),
  logCap: z.object({ blocks: z.number().int().min(1).max(100_000_000), at: z.number().int().min(0) }).optional(),
  traces: traceLearntSchema.optional(),
  /** The network's `eth_chainId` (decimal): it never changes, kept for good (chain-ids.ts). */
  chainId: z
    .string()
    .regex(/^[1-9][0-9]{0,19}$/)
    .optional(),
})
type NetworkLearnt = z.infer<typeof networkSchema>
const fileSchema = z.object({
  version: z.literal(VERSION),
  profiles: z.record(z.string().max(200), z.record(z.string().max(200), networkSchema)),
})
type LearntFile = z.infer<typeof fileSchema>

/** What BatchSizes, LogRanges and the trace reader keep across runs for one profile. */
export interface LearntLimits {
  batches: BatchSizesMemory
  logCaps: LogCapsMemory
  traces: TracesMemory
  chainIds: ChainIdMemory
}

/** A short fingerprint of an RPC address: enough to notice another one, and no copy of it. */
function endpointTag(rpcUrl: string): string {
  return createHash('sha256').update(`chainscope-endpoint:${rpcUrl}`).digest('hex').slice(0, 16)
}

/**
 * The batch sizes and log-range caps each profile's RPC endpoint was found to take, per network,
 * so a restart does not pay again for the refusals that taught them (`learnt-limits.json`,
 * versioned-file.ts: a save that would not load is refused, a damaged file is set aside). An
 * entry learnt from another RPC address is ignored (the new one is learnt afresh). A log cap is
 * trusted for a week, then learnt again; batch sizes keep their own upward probes (batch-sizes.ts).
 * A failed save is logged and the values kept for the session: learning is an optimisation.
 */
export class LearntLimitsStore {
  readonly #file: VersionedFile<LearntFile>
  readonly #now: () => number
  readonly #log: Logger | undefined
  /** Bumped by `forget`: a memory handed out before answers nothing and saves nothing. */
  readonly #generations = new Map<string, number>()
  /**
   * What was learnt of traces this session, by profile, network and endpoint: the file takes it
   * in the background (or refuses it), and a refusal must not be asked again meanwhile.
   */
  readonly #tracesThisSession = new Map<string, TraceLearnt>()
  readonly notice: string | null

  constructor(dataDir: string, options: { now?: () => number; log?: Logger; faults?: FileFaults } = {}) {
    this.#now = options.now ?? Date.now
    this.#log = options.log
    this.#file = new VersionedFile<LearntFile>({
      path: join(dataDir, 'learnt-limits.json'),
      version: VERSION,
      label: 'learnt provider limits',
      migrate: (raw) => fileSchema.parse(raw),
      empty: () => ({ version: VERSION, profiles: {} }),
      now: this.#now,
      ...options.faults,
    })
    this.notice = this.#file.load().notice
  }

  /** Every save made so far is decided: written or refused, each within the save deadline (tests, a clean close). */
  settled(): Promise<void> {
    return this.#file.decided()
  }

  /** One profile's memory; `rpcUrl` is read at each use (the profile's address may change). */
  forProfile(profileId: string, rpcUrl: () => string): LearntLimits {
    // A runtime ended by `forget` may still finish a request meanwhile: what it learns then is of
    // a profile removed or re-pointed (its rpcUrl now the new address's), and is dropped.
    const generation = this.#generations.get(profileId) ?? 0
    const forgotten = (): boolean => (this.#generations.get(profileId) ?? 0) !== generation
    const entry = (network: string): NetworkLearnt | null => {
      if (forgotten()) return null
      const profiles = this.#file.data.profiles
      const found = Object.hasOwn(profiles, profileId) ? profiles[profileId]![network] : undefined
      return found && found.endpoint === endpointTag(rpcUrl()) ? found : null
    }
    const update = (network: string, change: (e: NetworkLearnt) => void): void => {
      if (forgotten()) return
      const endpoint = endpointTag(rpcUrl())
      // Only what was saved is kept here; the caller keeps its value for the session either way.
      this.#save((file) => {
        if (forgotten()) return file
        const nets = Object.hasOwn(file.profiles, profileId) ? file.profiles[profileId]! : {}
        const current = nets[network]
        const next: NetworkLearnt = current?.endpoint === endpoint ? { ...current } : { endpoint }
        change(next)
        return { ...file, profiles: { ...file.profiles, [profileId]: { ...nets, [network]: next } } }
      })
    }
    const session = this.#tracesThisSession
    const key = (network: string): string => JSON.stringify([profileId, network, endpointTag(rpcUrl())])
    return {
      batches: {
        load: (network) => entry(network)?.batch ?? null,
        save: (network, sizes) => update(network, (e) => (e.batch = { ...sizes })),
      },
      logCaps: {
        load: (network) => {
          const cap = entry(network)?.logCap
          return cap && this.#now() - cap.at < LOG_CAP_KEPT_MS ? cap.blocks : null
        },
        save: (network, cap) => update(network, (e) => (e.logCap = { blocks: cap, at: this.#now() })),
      },
      chainIds: {
        load: (network) => entry(network)?.chainId ?? null,
        save: (network, chainId) => update(network, (e) => (e.chainId = chainId)),
      },
      traces: {
        // Like a log cap, trusted for a while then asked again: the plan may have changed.
        load: (network) => {
          const t = forgotten() ? null : (session.get(key(network)) ?? entry(network)?.traces)
          return t && this.#now() - t.at < TRACE_LEARNT_KEPT_MS ? t : null
        },
        save: (network, learnt) => {
          if (forgotten()) return
          const t = { ...learnt, at: this.#now() }
          session.set(key(network), t)
          update(network, (e) => (e.traces = t))
        },
      },
    }
  }

  /** Drops what a profile learnt (it was removed, or re-pointed at another service). */
  forget(profileId: string): void {
    this.#generations.set(profileId, (this.#generations.get(profileId) ?? 0) + 1)
    for (const k of this.#tracesThisSession.keys())
      if ((JSON.parse(k) as string[])[0] === profileId) this.#tracesThisSession.delete(k)
    this.#save((file) => {
      if (!Object.hasOwn(file.profiles, profileId)) return file
      const profiles = { ...file.profiles }
      delete profiles[profileId]
      return { ...file, profiles }
    })
  }

  /** Nobody waits for these saves: one refused is logged, and the file and memory stay as they were. */
  #save(change: (file: LearntFile) => LearntFile): void {
    this.#file.update(change).catch((error: unknown) => {
      this.#log?.warn(`learnt provider limits not saved: ${errorMessage(error)}`)
    })
  }
}

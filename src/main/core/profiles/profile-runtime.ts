import type { LimiterState } from '@shared/bridge/contract'
import { SANDBOX_PROFILE_ID, type Profile } from '@shared/domain/profile'
import { AppError } from '../util/app-error'
import { CoinBalances } from '../balances/coin-balances'
import { DataService } from '../data/data-service'
import type { Freshness } from '../data/freshness'
import type { SnapshotStore } from '../data/snapshot-store'
import type { HeadSource } from '../height/height-watcher'
import type { KeyStore } from '../keys/key-store'
import { LimiterPool } from '../limiter/limiter-pool'
import type { QuotaLedger } from '../limiter/quota-store'
import type { Logger, Redactor } from '../util/logger'
import type { SandboxManager } from '../sandbox/sandbox-manager'
import { cheapestCalls, cheapestUnits } from '../service/cheapest-calls'
import { ServiceClient, type ServiceClientOptions } from '../service/service-client'
import type { Clock } from '../util/clock'
import type { SettingsStore } from './settings-store'
import { MAX_SAFE_BIGINT, parseHexQuantity } from '@shared/domain/amount'
import { isRecord } from '@shared/guards'
import { SAFE_BILLING } from '@shared/domain/billing'
import { BlockTags } from '../height/block-tags'
import { ChainIds } from '../height/chain-ids'
import type { LearntLimitsStore } from '../service/learnt-limits-store'
import { ConnectionState, type ConnectionStateOptions } from '../service/connection-state'

/** Tuning knobs shared by every profile's services (tests and benchmarks shorten them). */
export interface RuntimeTuning {
  client?: Partial<
    Pick<ServiceClientOptions, 'timeoutMs' | 'maxAttempts' | 'backoffMs' | 'maxRetryWaitMs' | 'maxBodyBytes'>
  >
  freshness?: Partial<Freshness>
  /** The circuit breaker's pauses (connection-state.ts). */
  connection?: Pick<ConnectionStateOptions, 'openAfter' | 'firstPauseMs' | 'maxPauseMs'>
  /** Default true: see `queueSafe` in limiter.ts. */
  queueSafe?: boolean
  reserveFraction?: number
}

export interface RuntimeDeps {
  settings: SettingsStore
  keys: KeyStore
  sandbox: SandboxManager
  snapshots: SnapshotStore
  ledger: QuotaLedger
  clock: Clock
  fetch?: typeof fetch
  redactor: Redactor
  log: Logger
  tuning: RuntimeTuning
  onLimiter: (state: LimiterState) => void
  /** After any change of what calls to this profile's endpoints did (ConnectionState). */
  onConnection: (profileId: string) => void
  /** Whether "Work offline" is on: nothing is sent while it is. */
  workOffline: () => boolean
  onHead: (profileId: string, network: string, head: number, atMs: number) => void
  headOf: (profileId: string, network: string) => number | null
  /** A revalidation's head and gas price (DataServiceOptions.onPoll). */
  onPoll?: (
    profileId: string,
    poll: { network: string; head: number; gasPriceWei: string | null; atMs: number },
  ) => void
  /** Batch sizes and log-range caps learnt, kept across runs per profile and network. */
  learnt?: LearntLimitsStore
}

/** One profile's limiters, service client and data service, created on first use. */
export class ProfileRuntime {
  readonly profileId: string
  /** One limiter per bucket of the profile's `limits.scope` (one for the whole key by default). */
  readonly limiters: LimiterPool
  readonly client: ServiceClient
  readonly data: DataService
  /** Coin balances of many addresses per call, and how each network answers them (remembered). */
  readonly balances = new CoinBalances()
  readonly #deps: RuntimeDeps
  /** Which networks lack the `finalized` tag (refused once: not asked again this session). */
  readonly #tags = new BlockTags()
  /** Each network's chain id, read once (the first head poll's batch) and kept for good. */
  readonly #chainIds: ChainIds

  constructor(profileId: string, deps: RuntimeDeps) {
    this.profileId = profileId
    this.#deps = deps
    const profile = (): Profile => deps.settings.get(profileId)
    this.limiters = new LimiterPool({
      profileId,
      limits: profile().limits,
      networks: () => deps.settings.find(profileId)?.networks.map((n) => n.name) ?? [],
      ledger: deps.ledger,
      clock: deps.clock,
      tuning: { queueSafe: deps.tuning.queueSafe ?? true, reserveFraction: deps.tuning.reserveFraction },
      billing: () => deps.settings.find(profileId)?.billing ?? SAFE_BILLING,
      onState: deps.onLimiter,
    })
    const learnt = deps.learnt?.forProfile(profileId, () => profile().rpcUrl)
    this.#chainIds = new ChainIds(learnt?.chainIds)
    this.client = new ServiceClient({
      profile,
      getKey: () => this.key(),
      limiter: (network, endpoint) => this.limiters.for(network, endpoint),
      spelling: deps.settings.spelling(profileId),
      redact: (s) => deps.redactor.redact(s),
      log: deps.log,
      clock: deps.clock,
      fetch: deps.fetch,
      connection: new ConnectionState({
        ...deps.tuning.connection,
        clock: deps.clock,
        workOffline: deps.workOffline,
        onChange: () => deps.onConnection(profileId),
      }),
      learnt,
      ...deps.tuning.client,
    })
    this.data = new DataService({
      profileId,
      client: this.client,
      snapshots: deps.snapshots,
      clock: deps.clock,
      freshness: deps.tuning.freshness,
      onHead: (network, head, at) => deps.onHead(profileId, network, head, at),
      headOf: (network) => deps.headOf(profileId, network),
      onPoll: (network, head, gasPriceWei, atMs) => deps.onPoll?.(profileId, { network, head, gasPriceWei, atMs }),
      log: deps.log,
      secrets: deps.redactor,
    })
  }

  /** The profile as it is now; the sandbox's is complete only once it runs. */
  async ready(): Promise<Profile> {
    // A stopped sandbox is not started by a read: its profile (networks remembered) still
    // serves the cache, and a request fails offline saying it is stopped (key() below).
    if (this.profileId === SANDBOX_PROFILE_ID && !this.#deps.sandbox.held) await this.#deps.sandbox.ensure()
    return this.#deps.settings.get(this.profileId)
  }

  async key(): Promise<string> {
    if (this.profileId === SANDBOX_PROFILE_ID) await this.#deps.sandbox.ensure()
    const key = await this.#deps.keys.get(this.#deps.settings.keyRef(this.profileId))
    if (key) return key
    if (this.profileId === SANDBOX_PROFILE_ID)
      throw new AppError('offline', 'The built-in sandbox stopped; start it again in Settings.')
    throw new AppError(
      'auth',
      `No API key is set for the profile "${this.#deps.settings.get(this.profileId).name}". Add it in Settings → Profiles.`,
    )
  }

  /** Head and gas price (one batch, or two calls where batches are refused), and the block time from block timestamps. */
  headSource(): HeadSource {
    const background = { priority: 'background' as const, attempts: 1 }
    return {
      head: async (network, options) => {
        // The latest block (number and timestamp: when it was produced) and the gas price; for
        // the block time's seed, also the `finalized` block (tens of blocks back on Ethereum and
        // anvil, further on rollups: a long baseline) in the same batch, for no extra request.
        // A provider without that tag answers the call with an error or a null block: the seed
        // is then asked for on its own (`blockTime`), and the tag never again on that network.
        const withFinalized = options?.seed === true && this.#tags.known(network, 'finalized')
        // The chain id rides along until it is known (docs/decisions/chain-id-once.md).
        const askChainId = this.#chainIds.wanted(network)
        // One batch, or single calls where a batch costs one more than its calls.
        const answers = await cheapestCalls(
          this.client,
          network,
          [
            { method: 'eth_getBlockByNumber', params: ['latest', false] },
            { method: 'eth_gasPrice', params: [] },
            ...(withFinalized ? [{ method: 'eth_getBlockByNumber', params: ['finalized', false] }] : []),
            ...(askChainId ? [{ method: 'eth_chainId', params: [] }] : []),
          ],
          background,
        )
        const [block, gas] = answers
        const finalized = withFinalized ? answers[2] : undefined
        if (withFinalized && block?.ok) this.#tags.judge(network, 'finalized', finalized)
        if (!block?.ok)
          throw new AppError('rpc', `eth_getBlockByNumber failed on ${network}: ${block?.message ?? 'no answer'}`)
        const { height, timestampMs } = blockFields(block.result)
        if (height === null) throw new AppError('protocol', `The latest block on ${network} has no valid number.`)
        // Judged only beside a good head: a refused batch says nothing of the method.
        const chainId = askChainId
          ? this.#chainIds.judge(network, answers[withFinalized ? 3 : 2])
          : this.#chainIds.of(network)
        const g = gas?.ok ? parseHexQuantity(gas.result) : null
        const older = finalized?.ok ? blockFields(finalized.result) : null
        const seed =
          older && timestampMs !== null && older.height !== null && older.timestampMs !== null
            ? blockTimeBetween({ height, timestampMs }, { height: older.height, timestampMs: older.timestampMs })
            : undefined
        return {
          height,
          timestampMs: timestampMs ?? undefined,
          gasPriceWei: g === null ? null : g.toString(),
          chainId,
          ...(seed !== undefined ? { seed } : {}),
        }
      },
      blockTime: async (network, height, timestampMs) => {
        // One block ~100 back: a long enough baseline to extrapolate for minutes. A chain whose
        // older blocks carry pinned timestamps (the sandbox's seeded history) gives an
        // implausible slope, refused: the watcher then learns from its own polls.
        const back = Math.min(100, height)
        if (back < MIN_SEED_BLOCKS) return null
        const older = await this.client.rpc(
          network,
          { method: 'eth_getBlockByNumber', params: [`0x${(height - back).toString(16)}`, false] },
          background,
        )
        const then = blockFields(older).timestampMs
        if (then === null) return null
        return blockTimeBetween({ height, timestampMs }, { height: height - back, timestampMs: then }) ?? null
      },
      unitsPerPoll: (network) => cheapestUnits(this.client, network, this.#chainIds.wanted(network) ? 3 : 2),
      batches: (network) => this.client.batchSupport(network) !== false,
      chainIdOf: (network) => this.#chainIds.of(network),
    }
  }

  dispose(): void {
    this.data.dispose()
    this.limiters.dispose()
  }
}

/** Fewest blocks between the head and the older block a block-time seed is taken from. */
const MIN_SEED_BLOCKS = 8

/**
 * The block time from two blocks' timestamps: null when implausible (an older block with a
 * pinned, seeded timestamp: the watcher then learns from its own polls); undefined when the
 * older block is too close to tell (ask for one further back).
 */
function blockTimeBetween(
  head: { height: number; timestampMs: number },
  older: { height: number; timestampMs: number },
): { blockTimeMs: number; spanMs: number } | null | undefined {
  const blocks = head.height - older.height
  if (blocks < MIN_SEED_BLOCKS) return undefined
  const span = head.timestampMs - older.timestampMs
  const ms = span / blocks
  return ms >= 50 && ms <= 600_000 ? { blockTimeMs: ms, spanMs: span } : null
}

/** Number and timestamp (ms) of a block object, null where missing or malformed. */
function blockFields(block: unknown): { height: number | null; timestampMs: number | null } {
  const fields = isRecord(block) ? block : {}
  const h = parseHexQuantity(fields.number, MAX_SAFE_BIGINT)
  const ts = parseHexQuantity(fields.timestamp, MAX_SAFE_BIGINT)
  return { height: h === null ? null : Number(h), timestampMs: ts === null ? null : Number(ts) * 1000 }
}

import type { LimiterState } from '../../../shared/bridge/contract'
import { SANDBOX_PROFILE_ID, type Profile } from '../../../shared/domain/profile'
import { AppError } from '../app-error'
import { DataService, type Freshness } from '../data/data-service'
import type { SnapshotStore } from '../data/snapshot-store'
import type { HeadSource } from '../height/height-watcher'
import type { KeyStore } from '../keys/key-store'
import { LimiterPool } from '../limiter/limiter-pool'
import type { QuotaLedger } from '../limiter/quota-store'
import type { Logger, Redactor } from '../logger'
import type { SandboxManager } from '../sandbox-manager'
import { ServiceClient, type ServiceClientOptions } from '../service/service-client'
import type { Clock } from '../util/clock'
import type { SettingsStore } from './settings-store'

/** Tuning knobs shared by every profile's services (tests and benchmarks shorten them). */
export interface RuntimeTuning {
  client?: Partial<Pick<ServiceClientOptions, 'timeoutMs' | 'maxAttempts' | 'backoffMs' | 'maxRetryWaitMs' | 'maxBodyBytes'>>
  freshness?: Partial<Freshness>
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
  onReachability: (reachable: boolean, reason: string | null) => void
  onHead: (profileId: string, network: string, head: number, atMs: number) => void
  headOf: (profileId: string, network: string) => number | null
}

/** One profile's limiters, service client and data service, created on first use. */
export class ProfileRuntime {
  readonly profileId: string
  /** One limiter per bucket of the profile's `limits.scope` (one for the whole key by default). */
  readonly limiters: LimiterPool
  readonly client: ServiceClient
  readonly data: DataService
  readonly #deps: RuntimeDeps

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
      onState: deps.onLimiter,
    })
    this.client = new ServiceClient({
      profile,
      getKey: () => this.key(),
      limiter: (network, endpoint) => this.limiters.for(network, endpoint),
      spelling: deps.settings.spelling(profileId),
      redact: (s) => deps.redactor.redact(s),
      log: deps.log,
      clock: deps.clock,
      fetch: deps.fetch,
      onReachability: deps.onReachability,
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
      log: deps.log,
      secrets: deps.redactor,
    })
  }

  /** The profile as it is now; the sandbox's is complete only once it runs. */
  async ready(): Promise<Profile> {
    if (this.profileId === SANDBOX_PROFILE_ID) await this.#deps.sandbox.ensure()
    return this.#deps.settings.get(this.profileId)
  }

  async key(): Promise<string> {
    if (this.profileId === SANDBOX_PROFILE_ID) await this.#deps.sandbox.ensure()
    const key = await this.#deps.keys.get(this.profileId)
    if (key) return key
    if (this.profileId === SANDBOX_PROFILE_ID) throw new AppError('offline', 'The built-in sandbox stopped; it restarts on the next request.')
    throw new AppError('auth', `No API key is set for the profile "${this.#deps.settings.get(this.profileId).name}". Add it in Settings → Profiles.`)
  }

  /** Head and gas price in one batch, and the block time from block timestamps. */
  headSource(): HeadSource {
    return {
      head: async (network) => {
        // The latest block (number and timestamp: when it was produced) and the gas price.
        const [block, gas] = await this.client.rpcBatch(
          network,
          [
            { method: 'eth_getBlockByNumber', params: ['latest', false] },
            { method: 'eth_gasPrice', params: [] },
          ],
          { priority: 'background', attempts: 1 },
        )
        if (!block?.ok) throw new AppError('rpc', `eth_getBlockByNumber failed on ${network}: ${block?.message ?? 'no answer'}`)
        const fields = (typeof block.result === 'object' && block.result !== null ? block.result : {}) as { number?: unknown; timestamp?: unknown }
        const h = hexQuantity(fields.number)
        const ts = hexQuantity(fields.timestamp)
        if (h === null) throw new AppError('protocol', `The latest block on ${network} has no valid number.`)
        const g = gas?.ok ? hexQuantity(gas.result, true) : null
        return { height: Number(h), timestampMs: ts === null ? undefined : Number(ts) * 1000, gasPriceWei: g === null ? null : g.toString() }
      },
      blockTime: async (network, height) => {
        // Three blocks: a recent span and an older one. If they disagree (the sandbox's seeded
        // history has pinned timestamps) the seed is refused and asked again at a later poll.
        const near = Math.min(32, height)
        const far = Math.min(128, height)
        if (near < 8) return null
        const numbers = [height, height - near, height - far]
        const replies = await this.client.rpcBatch(
          network,
          numbers.map((n) => ({ method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, false] })),
          { priority: 'background', attempts: 1 },
        )
        const times = replies.map((r) => (r.ok && typeof r.result === 'object' && r.result !== null ? hexQuantity((r.result as { timestamp?: unknown }).timestamp) : null))
        if (times.some((t) => t === null)) return null
        const [t0, t1, t2] = times.map((t) => Number(t) * 1000) as [number, number, number]
        const recent = (t0 - t1) / near
        const older = far > near ? (t1 - t2) / (far - near) : recent
        const plausible = (ms: number): boolean => ms >= 50 && ms <= 600_000
        if (!plausible(recent)) return null
        return plausible(older) && Math.abs(older - recent) / recent < 0.25 ? (t0 - t2) / far : null
      },
    }
  }

  dispose(): void {
    this.data.dispose()
    this.limiters.dispose()
  }
}

export function hexQuantity(value: unknown, allowBig = false): bigint | null {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) return null
  const n = BigInt(value)
  if (!allowBig && n > BigInt(Number.MAX_SAFE_INTEGER)) return null
  return n
}

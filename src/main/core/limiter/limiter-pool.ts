import type { LimiterState } from '@shared/bridge/contract'
import type { LimitScope, Limits } from '@shared/domain/profile'
import type { Endpoint } from '../service/service-types'
import { systemClock, utcDay, type Clock } from '../util/clock'
import { countToday, keyLedgerId, raiseCount } from './daily-quota'
import { Limiter, type LimiterOptions } from './limiter'
import type { QuotaLedger } from './quota-store'
import type { Billing } from '@shared/domain/billing'

export interface LimiterPoolOptions {
  profileId: string
  limits: Limits
  /** The profile's network names as they are now: the buckets its state is chosen from. */
  networks: () => string[]
  ledger: QuotaLedger
  /** Default: the system clock. */
  clock?: Clock
  /** Passed to every limiter of the pool (see limiter.ts for their defaults). */
  tuning?: Pick<LimiterOptions, 'queueSafe' | 'reserveFraction' | 'reserveStep' | 'stateIntervalMs'>
  /** The unit the service counts in, as the profile says now (billing.ts). Default 'request'. */
  billing?: () => Billing
  /** The state of the most constrained bucket, after any bucket changed. */
  onState?: (state: LimiterState) => void
}

/** A bucket of a scope: the network and endpoint it covers (absent = all of them). */
interface Bucket {
  key: string
  network?: string
  endpoint?: Endpoint
}

const ENDPOINTS: Endpoint[] = ['data', 'rpc']

/** The bucket a request on (network, endpoint) draws from: '' for the whole key. */
function bucketKey(scope: LimitScope, network: string, endpoint: Endpoint): string {
  if (scope === 'network') return network
  if (scope === 'endpoint') return endpoint
  if (scope === 'network-endpoint') return `${network}|${endpoint}`
  return ''
}

/** The quota ledger's id of a bucket: the plain profile id for 'key', so old counts go on. */
function ledgerId(profileId: string, key: string): string {
  return key === '' ? profileId : `${profileId}|${key}`
}

function bucketsOf(scope: LimitScope, networks: string[]): Bucket[] {
  if (scope === 'key') return [{ key: '' }]
  if (scope === 'endpoint') return ENDPOINTS.map((endpoint) => ({ key: endpoint, endpoint }))
  if (scope === 'network') return networks.map((network) => ({ key: network, network }))
  return networks.flatMap((network) =>
    ENDPOINTS.map((endpoint) => ({ key: `${network}|${endpoint}`, network, endpoint })),
  )
}

const overlap = (a: Bucket, b: Bucket): boolean =>
  (!a.network || !b.network || a.network === b.network) && (!a.endpoint || !b.endpoint || a.endpoint === b.endpoint)

/**
 * The limiters of one profile, one per bucket of its limits' scope (spec 8 does not say what
 * the limits apply to; docs/decisions/limit-scope.md). Default scope 'key': one limiter, ledger id = the
 * profile id. Otherwise one per network (`<id>|<network>`), per endpoint (`<id>|data`,
 * `<id>|rpc`) or both (`<id>|<network>|<endpoint>`), each with the full rate, burst and daily
 * quota, created on first use. A change of scope rebuilds the pool; each new bucket starts
 * from at least today's count of the old buckets it overlaps, so the change never forgets
 * requests the service may already have counted against it.
 */
export class LimiterPool {
  readonly profileId: string
  readonly #o: LimiterPoolOptions
  readonly #clock: Clock
  readonly #limiters = new Map<string, Limiter>()
  #limits: Limits
  #disposed = false

  constructor(options: LimiterPoolOptions) {
    this.profileId = options.profileId
    this.#o = options
    this.#clock = options.clock ?? systemClock
    this.#limits = { ...options.limits }
  }

  get scope(): LimitScope {
    return this.#limits.scope
  }

  /** The limiter a request on `network` to `endpoint` goes through. */
  for(network: string, endpoint: Endpoint): Limiter {
    return this.#get(bucketKey(this.#limits.scope, network, endpoint))
  }

  setLimits(limits: Limits): void {
    const from = this.#limits.scope
    this.#limits = { ...limits }
    if (from === limits.scope) {
      for (const limiter of this.#limiters.values()) limiter.setLimits(limits)
      return
    }
    // Dispose first: each old limiter writes its exact count, which the carry reads.
    let keyTag = ''
    for (const limiter of this.#limiters.values()) {
      keyTag ||= limiter.keyTag
      limiter.dispose('The request limits changed while this request waited; try again.')
    }
    this.#limiters.clear()
    this.#carry(from, limits.scope, keyTag)
    this.#publish()
  }

  /**
   * The state of the bucket with the least left today (then: throttled, fewest tokens), as
   * the profile's. With no network known yet a fresh, unsaved bucket stands in.
   */
  state(): LimiterState {
    const buckets = bucketsOf(this.#limits.scope, this.#o.networks())
    let best: { state: LimiterState; key: string } | null = null
    for (const { key } of buckets) {
      const state = this.#get(key).state()
      if (!best || rank(state) < rank(best.state)) best = { state, key }
    }
    if (!best) {
      const stand = this.#make('')
      best = { state: stand.state(), key: '' }
      stand.dispose()
    }
    const scoped = { ...best.state, profileId: this.profileId, scope: this.#limits.scope }
    return best.key === '' ? scoped : { ...scoped, scopeKey: best.key }
  }

  dispose(): void {
    this.#disposed = true
    for (const limiter of this.#limiters.values()) limiter.dispose()
  }

  #get(key: string): Limiter {
    let limiter = this.#limiters.get(key)
    if (!limiter) {
      limiter = this.#make(key)
      if (this.#disposed) limiter.dispose()
      else this.#limiters.set(key, limiter)
    }
    return limiter
  }

  #make(key: string): Limiter {
    return new Limiter({
      profileId: ledgerId(this.profileId, key),
      bucket: key,
      limits: this.#limits,
      ledger: this.#o.ledger,
      clock: this.#clock,
      ...this.#o.tuning,
      billing: this.#o.billing,
      onState: this.#o.onState ? () => this.#publish() : undefined,
    })
  }

  #publish(): void {
    if (!this.#o.onState || this.#disposed) return
    this.#o.onState(this.state())
  }

  /**
   * Seeds each new bucket with today's count of the old buckets it overlaps (never lowers one):
   * the key's buckets once a key is known (`keyTag`), else the profile's.
   */
  #carry(from: LimitScope, to: LimitScope, keyTag: string): void {
    const ledger = this.#o.ledger
    const today = utcDay(this.#clock.now())
    const networks = this.#o.networks()
    const idOf = (bucket: string): string =>
      keyTag === '' ? ledgerId(this.profileId, bucket) : keyLedgerId(keyTag, bucket)
    const old = bucketsOf(from, networks).map((b) => ({ bucket: b, record: countToday(ledger, idOf(b.key), today) }))
    for (const bucket of bucketsOf(to, networks)) {
      let used = 0
      for (const { bucket: o, record } of old) if (record && overlap(bucket, o)) used += record.used
      if (used > 0) raiseCount(ledger, idOf(bucket.key), { day: today, used, keyTag })
    }
  }
}

/** Lower is more constrained: least left today, then throttled, then fewest tokens. */
function rank(s: LimiterState): number {
  return s.leftToday * 1e6 + (s.throttled ? 0 : 5e5) + Math.min(s.tokens, 4e5)
}

import type { ConnectionEndpoint, EndpointConnection, ConnectionStateName } from '@shared/bridge/contract'
import { AppError } from '../util/app-error'
import { systemClock, type Clock } from '../util/clock'
import { withDefaults } from '../util/options'

export interface ConnectionStateOptions {
  clock?: Clock
  /** Called after every change of a record (the owner publishes the view). */
  onChange?: () => void
  /** Whether "Work offline" is on, read at each call. */
  workOffline?: () => boolean
  /** Connection failures in a row before the breaker opens; a timeout counts as all of them. Default 3. */
  openAfter?: number
  /** The first pause of an open breaker; doubles with each failed probe. Default 10 s. */
  firstPauseMs?: number
  /** The longest pause between probes. Default 60 s. */
  maxPauseMs?: number
  /**
   * An attempt out this long with no answer from the endpoint since it left makes the endpoint
   * suspect: new attempts wait for it to end rather than join it. Default 2 s.
   */
  holdAfterMs?: number
}

/** How a call ended, as far as the service's health goes. */
export type CallOutcome =
  | { kind: 'answered' }
  /**
   * `probe`: the attempt was the open breaker's one probe (its failure doubles the pause);
   * `heard`: the service answered, with a 5xx: failing, but not hanging (the breaker closes).
   */
  | { kind: 'failed'; reason: string; timedOut: boolean; probe?: boolean; heard?: boolean }
  | { kind: 'refused'; reason: string }
  | { kind: 'quota'; untilMs: number; reason: string }

interface EndpointRecord {
  state: ConnectionStateName
  lastSuccessAt: number | null
  /** The last time the endpoint answered anything (a refusal included). */
  lastHeardAt: number
  since: number | null
  /** Failures in a row since the last answer. */
  failures: number
  /** When the breaker lets the next probe go; null while it is closed. */
  nextRetryAt: number | null
  /** The open breaker's current pause between probes. */
  pauseMs: number
  until: number | null
  reason: string | null
  /** A probe is on its way (one at a time while the breaker is open). */
  probing: boolean
  /** When each attempt now out left. */
  out: Set<{ at: number }>
  /** Attempts waiting for the next outcome (see `holdAfterMs`). */
  waiters: (() => void)[]
}

/** Answers of an endpoint already answering are published at most this often. */
const QUIET_MS = 5000

/** What an answer, a refusal or a used-up quota clears. */
const CLEAR = { since: null, failures: 0, nextRetryAt: null, pauseMs: 0, until: null, reason: null }

const DEFAULTS = { clock: systemClock, openAfter: 3, firstPauseMs: 10_000, maxPauseMs: 60_000, holdAfterMs: 2000 }

/**
 * The one record of what real calls to each network's endpoints did (docs/architecture.md
 * "Connection truth"): the request sender reports every attempt's outcome here, the circuit
 * breaker (circuit-breaker.ts) reads it before every attempt, and the core publishes it.
 */
export class ConnectionState {
  readonly #o: ConnectionStateOptions & typeof DEFAULTS
  readonly #records = new Map<string, EndpointRecord>()

  constructor(options: ConnectionStateOptions = {}) {
    this.#o = { ...options, ...withDefaults(DEFAULTS, options) }
  }

  get clock(): Clock {
    return this.#o.clock
  }

  get workOffline(): boolean {
    return this.#o.workOffline?.() ?? false
  }

  /** The record of one network's endpoint (a fresh one: `unknown`). */
  record(network: string, endpoint: ConnectionEndpoint): Readonly<EndpointRecord> {
    return this.#rec(network, endpoint)
  }

  report(network: string, endpoint: ConnectionEndpoint, outcome: CallOutcome): void {
    const r = this.#rec(network, endpoint)
    const now = this.#o.clock.now()
    if (outcome.kind !== 'failed' || outcome.heard) r.lastHeardAt = now
    // Another answer of an endpoint already answering is news only now and then (the time of
    // the last success), not an event per request.
    const quiet = outcome.kind === 'answered' && r.state === 'answering' && now - (r.lastSuccessAt ?? 0) < QUIET_MS
    switch (outcome.kind) {
      case 'answered':
        Object.assign(r, { ...CLEAR, state: 'answering', lastSuccessAt: now })
        break
      case 'failed': {
        if (r.state !== 'not-answering') r.since = now
        r.state = 'not-answering'
        r.reason = outcome.reason
        if (outcome.heard) {
          // A 5xx is an answer: its own request's retries are bounded; nothing to hold back.
          Object.assign(r, { failures: 0, nextRetryAt: null, pauseMs: 0 })
          break
        }
        // A timeout is the service not answering for the whole deadline: the breaker opens at once.
        r.failures = outcome.timedOut ? Math.max(r.failures + 1, this.#o.openAfter) : r.failures + 1
        // Attempts that left before the breaker opened are the same outage: only a failed probe
        // lengthens the pause.
        if (outcome.probe) r.pauseMs = Math.min(this.#o.maxPauseMs, Math.max(this.#o.firstPauseMs, r.pauseMs * 2))
        else if (r.nextRetryAt === null && r.failures >= this.#o.openAfter) r.pauseMs = this.#o.firstPauseMs
        else break
        r.nextRetryAt = now + r.pauseMs
        break
      }
      case 'refused':
        Object.assign(r, { ...CLEAR, state: 'refused', since: r.state === 'refused' ? r.since : now })
        r.reason = outcome.reason
        break
      case 'quota':
        Object.assign(r, { ...CLEAR, state: 'quota', until: outcome.untilMs, reason: outcome.reason })
        break
    }
    this.#wake(r)
    if (!quiet) this.#o.onChange?.()
  }

  /** Marks a probe as on its way (true) or done; false when one already is. */
  setProbing(network: string, endpoint: ConnectionEndpoint, probing: boolean): boolean {
    const r = this.#rec(network, endpoint)
    if (probing && r.probing) return false
    r.probing = probing
    return true
  }

  /** An attempt leaves: call the answer when it has ended, however. */
  leaving(network: string, endpoint: ConnectionEndpoint): () => void {
    const r = this.#rec(network, endpoint)
    const entry = { at: this.#o.clock.now() }
    r.out.add(entry)
    return () => {
      if (r.out.delete(entry)) this.#wake(r)
    }
  }

  /**
   * Whether an attempt has been out `holdAfterMs` with nothing heard from the endpoint since it
   * left: then a hang is likely, and further attempts would only pile up behind it.
   */
  suspect(network: string, endpoint: ConnectionEndpoint): boolean {
    const r = this.#rec(network, endpoint)
    const now = this.#o.clock.now()
    for (const { at } of r.out) if (now - at >= this.#o.holdAfterMs && r.lastHeardAt <= at) return true
    return false
  }

  /** Resolves at the endpoint's next outcome or attempt end; rejects when `signal` aborts. */
  nextChange(network: string, endpoint: ConnectionEndpoint, signal?: AbortSignal): Promise<void> {
    const r = this.#rec(network, endpoint)
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason ?? new AppError('cancelled', 'The request was cancelled.'))
      const onAbort = (): void => {
        r.waiters = r.waiters.filter((w) => w !== wake)
        reject(signal?.reason ?? new AppError('cancelled', 'The request was cancelled.'))
      }
      const wake = (): void => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }
      r.waiters.push(wake)
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }

  /** Every record, as the bridge publishes them (`offline-by-choice` over all while the switch is on). */
  endpoints(): EndpointConnection[] {
    const offline = this.workOffline
    const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString())
    return [...this.#records.entries()].map(([key, r]) => {
      const [network = '', endpoint = 'data'] = key.split('|') as [string, ConnectionEndpoint]
      return {
        network,
        endpoint,
        state: offline ? 'offline-by-choice' : r.state,
        lastSuccessAt: iso(r.lastSuccessAt),
        since: iso(r.since),
        nextRetryAt: offline ? null : iso(r.nextRetryAt),
        until: iso(r.until),
        reason: r.reason,
      }
    })
  }

  #wake(r: EndpointRecord): void {
    const waiters = r.waiters
    r.waiters = []
    for (const wake of waiters) wake()
  }

  #rec(network: string, endpoint: ConnectionEndpoint): EndpointRecord {
    const key = `${network}|${endpoint}`
    let r = this.#records.get(key)
    if (!r) {
      r = {
        ...CLEAR,
        state: 'unknown',
        lastSuccessAt: null,
        lastHeardAt: 0,
        probing: false,
        out: new Set(),
        waiters: [],
      }
      this.#records.set(key, r)
    }
    return r
  }
}

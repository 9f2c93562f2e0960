import type { LimitName } from './limits'

export type Endpoint = 'balance' | 'transactions' | 'rpc'

export interface KeyStats {
  requests: number
  /** Units accepted in the sandbox's billing (`--billing`): equal to the accepted requests when it counts requests. */
  units: number
  rejected_429: number
  by_endpoint: Record<Endpoint, number>
  by_limit: Record<LimitName, number>
}

/** Counts for GET /__sandbox/stats. Unknown keys are only counted, never stored. */
export class Stats {
  readonly keys = new Map<string, KeyStats>()
  unauthorized = 0
  faultsInjected = 0

  request(key: string, endpoint: Endpoint): void {
    const s = this.of(key)
    s.requests += 1
    s.by_endpoint[endpoint] += 1
  }

  /** A request was let through, costing `units` in the sandbox's billing. */
  billed(key: string, units: number): void {
    this.of(key).units += units
  }

  rejected(key: string, limit: LimitName): void {
    const s = this.of(key)
    s.rejected_429 += 1
    s.by_limit[limit] += 1
  }

  toJSON(): unknown {
    return {
      keys: Object.fromEntries(this.keys),
      unauthorized: this.unauthorized,
      faults_injected: this.faultsInjected,
    }
  }

  private of(key: string): KeyStats {
    let s = this.keys.get(key)
    if (!s) {
      s = {
        requests: 0,
        units: 0,
        rejected_429: 0,
        by_endpoint: { balance: 0, transactions: 0, rpc: 0 },
        by_limit: { rate: 0, burst: 0, quota: 0 },
      }
      this.keys.set(key, s)
    }
    return s
  }
}

import type { Billing } from '@shared/domain/billing'
import { SPEC_LIMITS, type Profile } from '@shared/domain/profile'
import { Limiter } from '../limiter/limiter'
import { MemoryQuotaLedger } from '../limiter/quota-store'
import { ServiceClient, type ServiceClientOptions } from '../service/service-client'

/**
 * A real ServiceClient of a service profile at `url` (a scripted server or a sandbox), with
 * limits wide enough that only the service's own answers shape a test. Test support only.
 */
export function rpcClientFixture(
  url: string,
  options: { billing?: Billing; key?: string; client?: Partial<ServiceClientOptions> } = {},
): { client: ServiceClient; limiter: Limiter; profile: Profile } {
  const profile: Profile = {
    id: 'p',
    name: 'P',
    kind: 'service',
    baseUrl: url,
    rpcUrl: `${url}/rpc`,
    networks: [
      { name: 'alpha', label: 'Alpha' },
      { name: 'beta', label: 'Beta' },
    ],
    limits: SPEC_LIMITS,
    billing: options.billing ?? 'request',
  }
  const limiter = new Limiter({
    profileId: 'p',
    limits: { ratePerSecond: 10_000, burst: 1000, quotaPerDay: 10_000_000 },
    ledger: new MemoryQuotaLedger(),
    billing: () => profile.billing,
  })
  const client = new ServiceClient({
    profile: () => profile,
    getKey: async () => options.key ?? 'test-key-1234',
    limiter,
    spelling: { get: () => null, set: () => {} },
    redact: (s) => s,
    backoffMs: 1,
    ...options.client,
  })
  return { client, limiter, profile }
}

import type { LimitScope } from '@shared/domain/profile'

/** Plain words for what a profile's limits apply to (`Limits.scope`), in the order offered. */
export const LIMIT_SCOPE_LABELS: Record<LimitScope, string> = {
  key: 'per key (safest)',
  network: 'per network',
  endpoint: 'per endpoint',
  'network-endpoint': 'per network and endpoint',
}

/** The bucket a limiter state describes, for the quota meter: "alpha, RPC endpoint". */
export function scopeBucketLabel(scopeKey: string | undefined): string | null {
  if (!scopeKey) return null
  const words: Record<string, string> = { data: 'data API', rpc: 'RPC endpoint' }
  return scopeKey
    .split('|')
    .map((part) => words[part] ?? part)
    .join(', ')
}

import { normaliseAddress } from '@shared/domain/address'

/**
 * The scope of an address view's queued work (balances and transactions): leaving the view
 * cancels it (`work.cancel`). 'a:' + 32-character network + ':' + 42-character address stays
 * within the 80 characters a scope may have.
 */
export function scopeOf(network: string, address: string): string {
  return `a:${network}:${normaliseAddress(address)}`
}

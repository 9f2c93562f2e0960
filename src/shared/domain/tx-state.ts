import type { Transaction } from './service-schemas'

/**
 * Not yet in a block: Blockscout sends `status: null`, `block: null` and `result: "pending"`.
 * A pending transaction is neither a success nor a failure.
 */
export function isPending(tx: Transaction): boolean {
  return tx.block === null || tx.result === 'pending' || tx.status === null
}

/** A failed transaction: status or result other than the observed success values. */
export function isFailed(tx: Transaction): boolean {
  if (isPending(tx)) return false
  return tx.status !== 'ok' || tx.result !== 'success'
}

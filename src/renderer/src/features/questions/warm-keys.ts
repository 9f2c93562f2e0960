import type { Transaction } from '@shared/domain/service-schemas'
import { keysOf } from './address-filters'

const CHUNK = 2000

/**
 * Works out the filter keys of transactions as they load, in idle time, a chunk at a time:
 * the first filter over a long list then finds them ready instead of reading every item at
 * once. Answers a stop function, which tells how far it got.
 */
export function warmKeys(items: readonly Transaction[], address: string, from = 0): () => number {
  const me = address.toLowerCase()
  let i = from
  let handle: number | null = null
  let stopped = false
  const later = (run: () => void): number =>
    typeof requestIdleCallback === 'function'
      ? requestIdleCallback(run, { timeout: 2000 })
      : (setTimeout(run, 0) as unknown as number)
  const step = (): void => {
    if (stopped) return
    const end = Math.min(items.length, i + CHUNK)
    for (; i < end; i++) keysOf(items[i]!, me)
    handle = i < items.length ? later(step) : null
  }
  handle = later(step)
  return () => {
    stopped = true
    if (handle !== null && typeof cancelIdleCallback === 'function') cancelIdleCallback(handle)
    return i
  }
}

import type { BalanceItem } from '@shared/domain/service-schemas'
import { addTokenDelta } from './watch-state'

/**
 * The token balances a watch check keeps per address (`AddressState.tokens`), keyed like the
 * deltas (`<standard>|<token>`), and what the data API's balances answer says moved against
 * them: the `balances` way of a long gap (watch-plan.ts). ERC-721 items and ERC-1155 ids are
 * summed per token (a provider may list one item per id, or one per collection with a count).
 */

/** The standard a balance item's token counts under (ERC-404 and unknown kinds as fungible). */
function standardOf(type: string): 'erc20' | 'erc721' | 'erc1155' {
  return type === 'ERC-721' ? 'erc721' : type === 'ERC-1155' ? 'erc1155' : 'erc20'
}

/** Per `<standard>|<token>`, the total held in a balances answer. */
export function tokenTotals(items: readonly BalanceItem[]): Map<string, bigint> {
  const out = new Map<string, bigint>()
  for (const item of items) {
    const key = `${standardOf(item.token.type)}|${item.token.address.toLowerCase()}`
    out.set(key, (out.get(key) ?? 0n) + BigInt(item.value))
  }
  return out
}

/** The totals as the watch state keeps them. */
export function snapshotOf(totals: ReadonlyMap<string, bigint>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of totals) out[key] = addTokenDelta(undefined, value)
  return out
}

/** What moved from `before` (a snapshot) to `after` (a balances answer's totals): the non-zero differences. */
export function balanceDeltas(
  before: Readonly<Record<string, string>>,
  after: ReadonlyMap<string, bigint>,
): Map<string, bigint> {
  const out = new Map<string, bigint>()
  for (const key of new Set([...Object.keys(before), ...after.keys()])) {
    const delta = (after.get(key) ?? 0n) - BigInt(before[key] ?? '0')
    if (delta !== 0n) out.set(key, delta)
  }
  return out
}

/** A snapshot moved by what the logs showed (absent stays absent: there is nothing to move). */
export function movedSnapshot(
  tokens: Readonly<Record<string, string>> | undefined,
  moved: ReadonlyMap<string, bigint> | undefined,
): Record<string, string> | undefined {
  if (!tokens) return undefined
  const out = { ...tokens }
  for (const [key, amount] of moved ?? []) out[key] = addTokenDelta(out[key], amount)
  return out
}

/** Two deltas added key by key. */
export function addDeltas(
  a: ReadonlyMap<string, bigint> | undefined,
  b: ReadonlyMap<string, bigint> | undefined,
): Map<string, bigint> | undefined {
  if (!a && !b) return undefined
  const out = new Map(a ?? [])
  for (const [key, amount] of b ?? []) out.set(key, (out.get(key) ?? 0n) + amount)
  return out
}

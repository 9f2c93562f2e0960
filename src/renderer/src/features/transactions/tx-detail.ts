import { shortHash } from '@shared/domain/short-hash'
import type { DecodedCall, Transaction } from '@shared/domain/service-schemas'
import {
  fiatValue,
  formatFiat,
  formatTokenAmount,
  formatUnits,
  parseAmount,
  parseDecimals,
} from '@shared/domain/amount'
import { paramViews, type DecodedParam } from './revert-reason'
import { partyView } from './tx-view'
import { displayName } from '@shared/domain/display-name'

/** Exact native-coin reading of a wei amount: "0.000021 (21000000000000 wei)". */
export function coin(wei: unknown): { text: string; wei: string } {
  const a = formatTokenAmount(wei, '18')
  return { text: a.known ? a.text : 'unknown', wei: typeof wei === 'string' ? wei : 'unknown' }
}

export function gwei(wei: unknown): string {
  const v = parseAmount(wei)
  return v === null ? 'unknown' : `${formatUnits(v, 9)} gwei`
}

/** Gas used as a share of the limit, e.g. "21,000 of 21,000 (100 %)". */
export function gasUsage(used: unknown, limit: unknown): string {
  const u = parseAmount(used)
  const l = parseAmount(limit)
  if (u === null || l === null) return 'unknown'
  const pct = l === 0n ? '—' : `${(Number((u * 10000n) / l) / 100).toFixed(2)} %`
  return `${formatUnits(u, 0)} of ${formatUnits(l, 0)} (${pct})`
}

export function fiatAtTime(wei: unknown, rate: unknown): string | null {
  const cents = fiatValue(wei, '18', rate)
  return cents === null ? null : `$${formatFiat(cents)}`
}

/** "between 0.12 s and 2.3 s"; the spec gives a range in milliseconds. */
export function confirmationRange(range: readonly number[] | null | undefined): string {
  if (!range || range.length === 0) return 'not yet confirmed'
  const a = range[0]
  const b = range[1] ?? a
  if (a === undefined || b === undefined) return 'unknown'

  const s = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`)
  return a === b ? s(a) : `between ${s(a)} and ${s(b)}`
}

export interface TransferView {
  from: ReturnType<typeof partyView>
  to: ReturnType<typeof partyView>
  /** Symbol, else name, else a shortened token address. */
  token: string
  tokenAddress: string
  /** Amount with the token's decimals; the exact digits in `exact`. */
  amount: string
  exact: string
  type: string
  tokenId: string | null
}

/** Token transfers as rows; `total` is `{value, decimals}`, `{token_id}` or both. */
export function transferViews(tx: Transaction): TransferView[] {
  return (tx.token_transfers ?? []).map((t) => {
    const decimals = t.total.decimals ?? t.token.decimals ?? null
    const tokenId = t.total.token_id ?? null
    const value = t.total.value ?? null
    // An ERC-721 transfer moves one token and carries no value.
    const amount = value === null ? null : formatTokenAmount(value, parseDecimals(decimals) === null ? null : decimals)
    return {
      from: partyView(t.from),
      to: partyView(t.to),
      token: displayName(t.token.symbol) ?? displayName(t.token.name) ?? shortHash(t.token.address),
      tokenAddress: t.token.address,
      amount: amount ? amount.text : '1',
      exact: amount ? amount.exact : '1',
      type: t.token.type || t.type,
      tokenId,
    }
  })
}

export type { DecodedParam }

/** Decoded input as "method(args)" and a parameter table. */
export function decodedInputView(
  decoded: DecodedCall | null | undefined,
): { call: string; params: DecodedParam[] } | null {
  return decoded ? { call: decoded.method_call, params: paramViews(decoded) } : null
}

/** Raw input size in bytes, e.g. "0x a9059cbb…" is 68 bytes for an ERC-20 transfer. */
export function inputBytes(raw: string): number {
  return raw.startsWith('0x') ? Math.floor((raw.length - 2) / 2) : 0
}

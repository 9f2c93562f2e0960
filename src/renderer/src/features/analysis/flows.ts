import { formatUnits } from '@shared/domain/amount'
import type { TokenFlow } from './counterparties'

/** One token's flow as short text: "USDC +1.5 −2"; exact amounts, NFTs as counts. */
export function flowText(f: TokenFlow): string {
  const amount = (v: bigint): string => formatUnits(v, f.decimals ?? 0)
  const parts = [f.symbol]
  if (f.in > 0n) parts.push(`+${amount(f.in)}`)
  if (f.out > 0n) parts.push(`−${amount(f.out)}`)
  return parts.join(' ')
}

/**
 * A bigint amount as a number for a chart's bar or line only: charts plot floats. Every
 * amount the user reads (table, tooltip, summary) stays the exact bigint text.
 */
export function plotNumber(value: bigint, decimals: number | null): number {
  return Number.parseFloat(formatUnits(value, decimals ?? 0, { group: false }))
}

import { formatTokenAmount } from '@shared/domain/amount'

/** A wei amount as coin, exactly: "0.25 (250000000000000000 wei)". */
export function coinText(wei: string): string {
  const a = formatTokenAmount(wei, '18')
  return a.known ? `${a.text} (${wei} wei)` : `${wei} wei`
}

/** Who refused, in words the analyst reads beside the missing trace. */
export function refusalText(words: string): string {
  return `This provider does not give internal transfers: ${words}`
}

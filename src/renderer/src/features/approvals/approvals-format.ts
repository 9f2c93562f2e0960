import { exactFiatValue, formatFiat, formatTokenAmount, roundScaled, sumScaled } from '@shared/domain/amount'
import { isUnlimited } from '@shared/domain/approvals'
import type { ApprovalParty, ApprovalRow } from '@shared/domain/approvals-view'

/** What an approval lets the spender do, in the row's words. */
export const KIND_LABEL: Record<ApprovalRow['kind'], string> = {
  erc20: 'Token allowance',
  nft: 'One NFT',
  operator: 'Operator (all NFTs)',
}

export const STATUS_LABEL: Record<ApprovalRow['status'], string> = {
  live: 'In force',
  unknown: 'State not read',
  spent: 'Spent or moved',
  revoked: 'Revoked',
}

const symbolOf = (row: ApprovalRow): string => row.token.symbol ?? row.token.name ?? 'units'

/** The allowance: "Unlimited" from 2^255 on, else the amount with its decimals; NFTs say what they cover. */
export function allowanceText(row: ApprovalRow): { text: string; exact: string } {
  if (row.kind === 'operator') return { text: 'Every token of the collection', exact: 'setApprovalForAll' }
  if (row.kind === 'nft') return { text: `Token #${row.tokenId}`, exact: `token id ${row.tokenId}` }
  if (row.unlimited) return { text: 'Unlimited', exact: row.allowance ?? '' }
  const a = formatTokenAmount(row.allowance, row.token.decimals, { maxFractionDigits: 6 })
  const exact = `${a.exact} ${symbolOf(row)} (${row.allowance} raw)`
  const granted = row.grantedAmount === null ? null : BigInt(row.grantedAmount)
  // A live allowance below what was granted has been partly spent: say of how much.
  if (granted !== null && row.allowance !== null && BigInt(row.allowance) < granted && !isUnlimited(granted)) {
    const g = formatTokenAmount(row.grantedAmount, row.token.decimals, { maxFractionDigits: 6 })
    return { text: `${a.text} ${symbolOf(row)} of ${g.text} granted`, exact }
  }
  return { text: `${a.text} ${symbolOf(row)}`, exact }
}

/** What is at risk: the smaller of allowance and balance (with USD where known); for NFTs, what they cover. */
export function atRiskText(row: ApprovalRow): { text: string; exact: string; usd: string | null } {
  if (row.kind === 'operator') return { text: 'All of the collection you hold', exact: '', usd: null }
  if (row.kind === 'nft') return { text: `Token #${row.tokenId}`, exact: '', usd: null }
  if (row.atRisk === null) return { text: 'Balance unknown', exact: '', usd: null }
  const a = formatTokenAmount(row.atRisk, row.token.decimals, { maxFractionDigits: 6 })
  const usd = row.atRiskCents === null ? null : `$${formatFiat(BigInt(row.atRiskCents))}`
  return { text: `${a.text} ${symbolOf(row)}`, exact: `${a.exact} ${symbolOf(row)} (${row.atRisk} raw)`, usd }
}

/** The marks a party carries: its watchlist label, name, tags, contract and verified. */
export function partyMarks(p: ApprovalParty): string[] {
  return [p.isContract === true ? 'contract' : null, p.isVerified === true ? 'verified' : null, ...p.tags].filter(
    (m): m is string => m !== null,
  )
}

export const partyName = (p: ApprovalParty): string | null => p.watchlistLabel ?? p.name

/** The approvals in force, summed: what they can take now, valued where the token has a rate. */
export interface TotalAtRisk {
  /** Cents, the exact values summed and rounded once; null when no allowance in force is valued. */
  cents: bigint | null
  /** Token allowances in force whose at-risk amount has a value. */
  valued: number
  /** Token allowances in force without a value (no rate, no decimals or no balance read). */
  unvalued: number
  /** Of the allowances in force, those without limit (valued at the balance they can take). */
  unlimited: number
  /** NFT approvals and operators in force: never valued (no rate for one NFT). */
  nfts: number
}

/**
 * "Total at risk" over the rows in force (docs/decisions/coin-as-asset.md): per token allowance
 * the smaller of allowance and balance (an unlimited one, the balance), at the token's rate.
 */
export function totalAtRisk(rows: readonly ApprovalRow[]): TotalAtRisk {
  const parts = []
  const t: TotalAtRisk = { cents: null, valued: 0, unvalued: 0, unlimited: 0, nfts: 0 }
  for (const row of rows) {
    if (row.status !== 'live') continue
    if (row.kind !== 'erc20') {
      t.nfts++
      continue
    }
    if (row.unlimited) t.unlimited++
    const v = row.atRisk === null ? null : exactFiatValue(row.atRisk, row.token.decimals, row.token.rate)
    if (v === null) t.unvalued++
    else {
      t.valued++
      parts.push(v)
    }
  }
  if (parts.length) t.cents = roundScaled(sumScaled(parts))
  return t
}

/** The total in words: the sum and plainly what it leaves out. */
export function totalAtRiskText(t: TotalAtRisk): string {
  const n = (k: number, one: string, many: string): string => `${k} ${k === 1 ? one : many}`
  const head =
    t.cents === null
      ? 'Total at risk: no allowance in force has a value'
      : `Total at risk $${formatFiat(t.cents)} over ${n(t.valued, 'valued allowance', 'valued allowances')}`
  const notes = [
    t.unlimited ? `${n(t.unlimited, 'is', 'are')} unlimited (counted at the balance it can take)` : null,
    t.unvalued ? `${n(t.unvalued, 'allowance', 'allowances')} not valued (no rate or balance known)` : null,
    t.nfts ? `${n(t.nfts, 'NFT approval', 'NFT approvals')} not valued` : null,
  ].filter((x): x is string => x !== null)
  return notes.length ? `${head}; ${notes.join('; ')}.` : `${head}.`
}

import { describe, expect, it } from 'vitest'
import type { ApprovalRow } from '@shared/domain/approvals-view'
import { MAX_UINT256 } from '@shared/domain/approvals'
import { allowanceText, atRiskText, partyMarks, totalAtRisk, totalAtRiskText } from './approvals-format'

const party = (address: string) => ({
  address,
  name: null,
  tags: [],
  watchlistLabel: null,
  isContract: null,
  isVerified: null,
})
const mark = { tx: `0x${'1'.repeat(64)}`, block: 5, timestamp: null, via: 'approve' as const }

function row(extra: Partial<ApprovalRow>): ApprovalRow {
  return {
    kind: 'erc20',
    token: { ...party('0x00000000000000000000000000000000000000aa'), symbol: 'USDX', decimals: 6, type: 'ERC-20' },
    spender: party('0x00000000000000000000000000000000000000bb'),
    tokenId: null,
    status: 'live',
    allowance: '1500000',
    grantedAmount: '1500000',
    unlimited: false,
    balance: '250000',
    atRisk: '250000',
    atRiskCents: '25',
    granted: mark,
    last: mark,
    revoke: null,
    ...extra,
  }
}

describe('approvals format', () => {
  it('shows an allowance with its decimals, unlimited as such, and NFTs by what they cover', () => {
    expect(allowanceText(row({})).text).toBe('1.5 USDX')
    expect(allowanceText(row({ allowance: '600000', grantedAmount: '1000000' })).text).toBe('0.6 USDX of 1 granted')
    expect(allowanceText(row({ allowance: MAX_UINT256.toString(), unlimited: true })).text).toBe('Unlimited')
    expect(allowanceText(row({ kind: 'nft', tokenId: '7', allowance: null })).text).toBe('Token #7')
    expect(allowanceText(row({ kind: 'operator', allowance: null })).text).toBe('Every token of the collection')
  })

  it('shows what is at risk with its dollar value, or says the balance is unknown', () => {
    expect(atRiskText(row({}))).toMatchObject({ text: '0.25 USDX', usd: '$0.25' })
    expect(atRiskText(row({ atRisk: null, atRiskCents: null })).text).toBe('Balance unknown')
    expect(atRiskText(row({ token: { ...row({}).token, decimals: 0, symbol: 'ITM' }, atRisk: '3' })).text).toBe('3 ITM')
  })

  it('marks contracts, verified ones and tags', () => {
    expect(partyMarks({ ...party('0x1'), isContract: true, isVerified: true, tags: ['router'] })).toEqual([
      'contract',
      'verified',
      'router',
    ])
  })
})

describe('total at risk', () => {
  const token = (rate: string | null, decimals: number | null = 6) => ({
    ...party('0x00000000000000000000000000000000000000aa'),
    symbol: 'USDX',
    decimals,
    type: 'ERC-20',
    rate,
  })
  it('sums what the allowances in force can take, exactly, and says what it leaves out', () => {
    const t = totalAtRisk([
      // 0.250001 at 1.0003 = 0.2500760003
      row({ token: token('1.0003'), atRisk: '250001' }),
      // Unlimited: the balance it can take, 12.3456 at 64210.55 = 792,717.76608
      row({ token: token('64210.55', 4), unlimited: true, allowance: MAX_UINT256.toString(), atRisk: '123456' }),
      row({ token: token(null), atRisk: '999' }),
      row({ token: token('2'), atRisk: null }),
      row({ kind: 'operator', atRisk: null }),
      row({ token: token('5'), status: 'revoked', atRisk: '1000000' }),
    ])
    // By hand: 0.2500760003 + 792,717.76608 = 792,718.0161560003 → $792,718.02, rounded once.
    // Not valued: no rate, and a balance not read; the operator is an NFT approval; revoked is not in force.
    expect(t).toEqual({ cents: 79_271_802n, valued: 2, unvalued: 2, unlimited: 1, nfts: 1 })
    expect(totalAtRiskText(t)).toBe(
      'Total at risk $792,718.02 over 2 valued allowances; 1 is unlimited (counted at the balance it can take); 2 allowances not valued (no rate or balance known); 1 NFT approval not valued.',
    )
  })

  it('says plainly when nothing in force has a value', () => {
    const t = totalAtRisk([row({ token: token(null) })])
    expect(t.cents).toBeNull()
    expect(totalAtRiskText(t)).toBe(
      'Total at risk: no allowance in force has a value; 1 allowance not valued (no rate or balance known).',
    )
  })
})

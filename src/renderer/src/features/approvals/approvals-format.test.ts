import { describe, expect, it } from 'vitest'
import type { ApprovalRow } from '@shared/domain/approvals-view'
import { MAX_UINT256 } from '@shared/domain/approvals'
import { allowanceText, atRiskText, partyMarks } from './approvals-format'

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

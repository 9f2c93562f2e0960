import { encodeFunctionResult } from 'viem'
import { describe, expect, it } from 'vitest'
import { approvalsAbi, MAX_UINT256 } from '@shared/domain/approvals'
import type { ReadResult } from '../balances/aggregate3-codec'
import type { ApprovalCandidate } from './approval-fold'
import { riskOf, stateReads } from './approval-state'

const OWNER = '0x1111111111111111111111111111111111111111'
const TOKEN = '0x00000000000000000000000000000000000000aa'
const NFT = '0x00000000000000000000000000000000000000cc'
const ROUTER = '0x00000000000000000000000000000000000000bb'
const mark = { tx: '0x01', block: 1, timestamp: null, via: 'approve' as const }

function candidate(extra: Partial<ApprovalCandidate>): ApprovalCandidate {
  return {
    kind: 'erc20',
    token: TOKEN,
    spender: ROUTER,
    tokenId: null,
    maybeNft: false,
    grant: mark,
    last: mark,
    clearedByOwner: false,
    granted: 100n,
    expected: 100n,
    ...extra,
  }
}
const ok = (functionName: string, result: unknown): ReadResult => ({
  ok: true,
  data: encodeFunctionResult({ abi: approvalsAbi, functionName, result } as never),
})

describe('stateReads', () => {
  it('asks each kind its own question, balances once per token, and reads live, spent, revoked and unknown', () => {
    const cands = [
      candidate({}), // live, partly spent
      candidate({ spender: NFT }), // spent: allowance 0 though never cleared
      candidate({ kind: 'operator', token: NFT, granted: null, expected: null }),
      candidate({ kind: 'nft', token: NFT, tokenId: 7n, clearedByOwner: true }),
      candidate({ spender: OWNER }), // its read failed
    ]
    const { reads, read } = stateReads(OWNER, cands)
    expect(reads.map((r) => r.functionName)).toEqual([
      'allowance',
      'balanceOf',
      'allowance',
      'isApprovedForAll',
      'getApproved',
      'allowance',
    ])
    const states = read([
      ok('allowance', 40n),
      ok('balanceOf', 25n),
      ok('allowance', 0n),
      ok('isApprovedForAll', true),
      ok('getApproved', '0x0000000000000000000000000000000000000000'),
      { ok: false },
    ])
    expect(states.map((s) => [s.kind, s.status, s.allowance, s.balance])).toEqual([
      ['erc20', 'live', 40n, 25n],
      ['erc20', 'spent', 0n, 25n],
      ['operator', 'live', null, null],
      ['nft', 'revoked', null, null],
      ['erc20', 'unknown', 100n, 25n],
    ])
  })

  it('an approve on a token of unknown kind is what answers: getApproved from an ERC-721, allowance from an ERC-20', () => {
    const c = candidate({ maybeNft: true, tokenId: 9n })
    const { reads, read } = stateReads(OWNER, [c])
    expect(reads.map((r) => r.functionName)).toEqual(['getApproved', 'allowance', 'balanceOf'])
    expect(read([ok('getApproved', ROUTER), { ok: false }, { ok: false }])[0]).toMatchObject({
      kind: 'nft',
      status: 'live',
    })
    expect(read([{ ok: false }, ok('allowance', 3n), ok('balanceOf', 1n)])[0]).toMatchObject({
      kind: 'erc20',
      status: 'live',
    })
  })

  it('without an answer every approval is unknown, as the events left it', () => {
    const { read } = stateReads(OWNER, [candidate({ expected: 12n })])
    expect(read(null)[0]).toMatchObject({ status: 'unknown', allowance: 12n })
  })
})

describe('riskOf', () => {
  it('is the smaller of allowance and balance, in cents where the rate is known, for 0, 6 and 18 decimals', () => {
    // 0 decimals: 5 of a balance of 9 at $2.50 each.
    expect(riskOf(5n, 9n, 0, '2.5')).toEqual({ amount: 5n, cents: 1250n })
    // 6 decimals: an allowance of 1,000.000000 against a balance of 250.5, at $1.
    expect(riskOf(1_000_000_000n, 250_500_000n, 6, '1')).toEqual({ amount: 250_500_000n, cents: 25050n })
    // 18 decimals: 1.5 tokens allowed of 3 held, at $2,000.10.
    expect(riskOf(15n * 10n ** 17n, 3n * 10n ** 18n, 18, '2000.10')).toEqual({
      amount: 15n * 10n ** 17n,
      cents: 300015n,
    })
  })

  it('an unlimited allowance puts the whole balance at risk; an unknown rate or balance gives no number', () => {
    expect(riskOf(MAX_UINT256, 123n * 10n ** 18n, 18, '3')).toEqual({ amount: 123n * 10n ** 18n, cents: 36900n })
    expect(riskOf(2n ** 255n, 7n, 0, null)).toEqual({ amount: 7n, cents: null })
    expect(riskOf(MAX_UINT256, null, 18, '3')).toEqual({ amount: null, cents: null })
    expect(riskOf(5n, 0n, 6, '1')).toEqual({ amount: 0n, cents: 0n })
  })
})

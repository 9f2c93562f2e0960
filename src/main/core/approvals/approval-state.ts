import { fiatValue } from '@shared/domain/amount'
import { approvalsAbi, isUnlimited } from '@shared/domain/approvals'
import type { ContractRead } from '../balances/aggregate3'
import type { ReadResult } from '../balances/aggregate3-codec'
import type { ApprovalCandidate } from './approval-fold'

/** An approval as it stands now on the chain, or as the events left it where the chain was not asked. */
export interface ApprovalState {
  candidate: ApprovalCandidate
  kind: ApprovalCandidate['kind']
  /** `live`: still lets the spender move tokens; `revoked`: cleared by the owner; `spent`: used up, or the token moved; `unknown`: not read. */
  status: 'live' | 'revoked' | 'spent' | 'unknown'
  /** ERC-20: the allowance now (or what the events say, when unread). */
  allowance: bigint | null
  /** ERC-20: the owner's balance of the token now; null when unread. */
  balance: bigint | null
}

type Slot = { kind: 'allowance' | 'approved' | 'operator'; candidate: number } | { kind: 'balance'; token: string }

/** The reads that tell every candidate's state, balances once per token; `read` turns their results into states. */
export function stateReads(owner: string, candidates: readonly ApprovalCandidate[]) {
  const reads: ContractRead[] = []
  const slots: Slot[] = []
  const o = owner as `0x${string}`
  const add = (read: Omit<ContractRead, 'abi'>, slot: Slot) => {
    reads.push({ ...read, abi: approvalsAbi })
    slots.push(slot)
  }
  const tokens = new Set<string>()
  candidates.forEach((c, i) => {
    const s = c.spender as `0x${string}`
    if (c.kind === 'operator')
      add({ address: c.token, functionName: 'isApprovedForAll', args: [o, s] }, { kind: 'operator', candidate: i })
    if (c.kind === 'nft' || c.maybeNft)
      add({ address: c.token, functionName: 'getApproved', args: [c.tokenId] }, { kind: 'approved', candidate: i })
    if (c.kind === 'erc20') {
      add({ address: c.token, functionName: 'allowance', args: [o, s] }, { kind: 'allowance', candidate: i })
      if (!tokens.has(c.token)) {
        tokens.add(c.token)
        add({ address: c.token, functionName: 'balanceOf', args: [o] }, { kind: 'balance', token: c.token })
      }
    }
  })
  return { reads, read: (results: ReadResult[] | null) => readStates(candidates, slots, results) }
}

/**
 * A read's one-word answer: a uint256 (allowance, balanceOf), a bool (isApprovedForAll, 0 or 1)
 * or an address (getApproved, its top 12 bytes zero); null when it failed, is shorter than a
 * word or is not that type. Read by hand, not by viem's decoder: ~500 reads of an address's
 * approvals took ~13 ms there on a fresh process.
 */
function decode(
  functionName: 'allowance' | 'balanceOf' | 'isApprovedForAll' | 'getApproved',
  r: ReadResult | undefined,
): bigint | boolean | string | null {
  if (!r?.ok || r.data.length < 66 || !/^0x[0-9a-fA-F]{64}/.test(r.data)) return null
  const word = r.data.slice(2, 66).toLowerCase()
  if (functionName === 'allowance' || functionName === 'balanceOf') return BigInt(`0x${word}`)
  if (functionName === 'isApprovedForAll')
    return word === '0'.repeat(64) ? false : word === `${'0'.repeat(63)}1` ? true : null
  return word.startsWith('0'.repeat(24)) ? `0x${word.slice(24)}` : null
}

function readStates(
  candidates: readonly ApprovalCandidate[],
  slots: Slot[],
  results: ReadResult[] | null,
): ApprovalState[] {
  const balances = new Map<string, bigint>()
  const per = candidates.map(() => ({
    allowance: null as bigint | null,
    approved: null as string | null,
    operator: null as boolean | null,
  }))
  slots.forEach((slot, i) => {
    const r = results?.[i]
    if (slot.kind === 'balance') {
      const v = decode('balanceOf', r)
      if (typeof v === 'bigint') balances.set(slot.token, v)
    } else if (slot.kind === 'allowance') {
      const v = decode('allowance', r)
      if (typeof v === 'bigint') per[slot.candidate]!.allowance = v
    } else if (slot.kind === 'approved') {
      const v = decode('getApproved', r)
      if (typeof v === 'string') per[slot.candidate]!.approved = v.toLowerCase()
    } else {
      const v = decode('isApprovedForAll', r)
      if (typeof v === 'boolean') per[slot.candidate]!.operator = v
    }
  })
  return candidates.map((candidate, i) => {
    const p = per[i]!
    const cleared = candidate.clearedByOwner
    // An approve on a token of unknown kind: whichever read answered says what it is.
    const asNft = candidate.kind === 'nft' || (candidate.maybeNft && p.allowance === null && p.approved !== null)
    if (asNft) {
      const kind = 'nft' as const
      const status =
        p.approved === null ? 'unknown' : p.approved === candidate.spender ? 'live' : cleared ? 'revoked' : 'spent'
      return { candidate, kind, status, allowance: null, balance: null }
    }
    if (candidate.kind === 'operator') {
      const status = p.operator === null ? 'unknown' : p.operator ? 'live' : 'revoked'
      return { candidate, kind: 'operator', status, allowance: null, balance: null }
    }
    const allowance = p.allowance
    const balance = balances.get(candidate.token) ?? null
    if (allowance === null)
      return { candidate, kind: 'erc20', status: 'unknown', allowance: candidate.expected, balance }
    const status = allowance > 0n ? 'live' : cleared ? 'revoked' : 'spent'
    return { candidate, kind: 'erc20', status, allowance, balance }
  })
}

/**
 * What an ERC-20 approval puts at risk: the smaller of the allowance and the balance (an
 * unlimited one, all of the balance); null while the balance is unknown.
 */
function atRisk(allowance: bigint | null, balance: bigint | null): bigint | null {
  if (allowance === null || balance === null) return null
  if (isUnlimited(allowance)) return balance
  return allowance < balance ? allowance : balance
}

/** At risk in raw units and, where the token's decimals and rate are known, in US cents (rounded to the cent). */
export function riskOf(
  allowance: bigint | null,
  balance: bigint | null,
  decimals: number | null,
  rate: string | null | undefined,
): { amount: bigint | null; cents: bigint | null } {
  const amount = atRisk(allowance, balance)
  const cents = amount !== null && decimals !== null ? fiatValue(amount, decimals, rate) : null
  return { amount, cents }
}

import { encodeFunctionData, parseAbi } from 'viem'
import { ZERO_ADDRESS } from './contracts'

/** The calls that grant, change or read approvals (ERC-20, ERC-2612 permit, ERC-721, ERC-1155). */
export const approvalsAbi = parseAbi([
  'function approve(address spender, uint256 value) returns (bool)',
  'function increaseAllowance(address spender, uint256 addedValue) returns (bool)',
  'function decreaseAllowance(address spender, uint256 subtractedValue) returns (bool)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function setApprovalForAll(address operator, bool approved)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function balanceOf(address owner) view returns (uint256)',
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function getApproved(uint256 tokenId) view returns (address)',
])

/** 4-byte selectors of the granting calls, for inputs a service did not decode. */
export const APPROVAL_SELECTORS = {
  approve: '0x095ea7b3',
  increaseAllowance: '0x39509351',
  decreaseAllowance: '0xa457c2d7',
  permit: '0xd505accf',
  setApprovalForAll: '0xa22cb465',
} as const

export const MAX_UINT256 = 2n ** 256n - 1n

/**
 * From this allowance on, an approval is shown as unlimited. Wallets grant max uint256, but
 * many tokens (OpenZeppelin's included) decrease even an "infinite" allowance on each
 * `transferFrom` except at exactly max uint256, and some wallets grant 2^255 or max int256:
 * either way no balance a token can hold comes near 2^255, so the difference is only noise
 * and "unlimited" is the honest word for all of them.
 */
const UNLIMITED_FROM = 2n ** 255n

export const isUnlimited = (allowance: bigint): boolean => allowance >= UNLIMITED_FROM

/**
 * What an approval lets someone else do:
 * - `erc20`: spend up to `allowance` of a fungible token (`spender`);
 * - `nft`: move one ERC-721 token (`tokenId`), `spender` being the approved address;
 * - `operator`: move every ERC-721/1155 token of the collection (`spender` is the operator).
 */
export type ApprovalKind = 'erc20' | 'nft' | 'operator'

/** The call that would revoke an approval, to copy into a wallet: Chainscope signs nothing. */
export interface RevokeCall {
  to: string
  data: string
  /** How a person reads it, e.g. "approve(0x…, 0)". */
  text: string
}

export function revokeCall(kind: ApprovalKind, token: string, spender: string, tokenId: bigint | null): RevokeCall {
  const s = spender as `0x${string}`
  if (kind === 'erc20')
    return {
      to: token,
      data: encodeFunctionData({ abi: approvalsAbi, functionName: 'approve', args: [s, 0n] }),
      text: `approve(${spender}, 0)`,
    }
  if (kind === 'operator')
    return {
      to: token,
      data: encodeFunctionData({ abi: approvalsAbi, functionName: 'setApprovalForAll', args: [s, false] }),
      text: `setApprovalForAll(${spender}, false)`,
    }
  if (tokenId === null) throw new Error('An ERC-721 single approval needs its token id to be revoked.')
  // ERC-721 clears a token's approval by approving the zero address for it.
  return {
    to: token,
    data: encodeFunctionData({ abi: approvalsAbi, functionName: 'approve', args: [ZERO_ADDRESS, tokenId] }),
    text: `approve(${ZERO_ADDRESS}, ${tokenId})`,
  }
}

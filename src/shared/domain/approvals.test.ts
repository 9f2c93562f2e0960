import { decodeFunctionData, keccak256, toFunctionSelector, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { APPROVAL_SELECTORS, approvalsAbi, isUnlimited, MAX_UINT256, revokeCall } from './approvals'
import { APPROVAL_FOR_ALL_TOPIC, APPROVAL_TOPIC } from './events'

const TOKEN = '0x00000000000000000000000000000000000000aa'
const SPENDER = '0x00000000000000000000000000000000000000bb'

describe('approval constants', () => {
  it('are the keccak-256 of the standard signatures', () => {
    expect(APPROVAL_TOPIC).toBe(keccak256(toHex('Approval(address,address,uint256)')))
    expect(APPROVAL_FOR_ALL_TOPIC).toBe(keccak256(toHex('ApprovalForAll(address,address,bool)')))
    expect(APPROVAL_SELECTORS.approve).toBe(toFunctionSelector('approve(address,uint256)'))
    expect(APPROVAL_SELECTORS.increaseAllowance).toBe(toFunctionSelector('increaseAllowance(address,uint256)'))
    expect(APPROVAL_SELECTORS.decreaseAllowance).toBe(toFunctionSelector('decreaseAllowance(address,uint256)'))
    expect(APPROVAL_SELECTORS.setApprovalForAll).toBe(toFunctionSelector('setApprovalForAll(address,bool)'))
    expect(APPROVAL_SELECTORS.permit).toBe(
      toFunctionSelector('permit(address,address,uint256,uint256,uint8,bytes32,bytes32)'),
    )
  })

  it('calls max uint256 and anything from 2^255 unlimited, and nothing below', () => {
    expect(isUnlimited(MAX_UINT256)).toBe(true)
    expect(isUnlimited(2n ** 255n)).toBe(true)
    expect(isUnlimited(2n ** 255n - 1n)).toBe(false)
    expect(isUnlimited(10n ** 30n)).toBe(false)
  })
})

describe('revokeCall', () => {
  it('an ERC-20 allowance: approve(spender, 0) on the token, decoding back to that call', () => {
    const call = revokeCall('erc20', TOKEN, SPENDER, null)
    expect(call.to).toBe(TOKEN)
    const d = decodeFunctionData({ abi: approvalsAbi, data: call.data as `0x${string}` })
    expect(d.functionName).toBe('approve')
    expect(d.args).toEqual([expect.stringMatching(new RegExp(SPENDER, 'i')), 0n])
    expect(call.data.slice(0, 10)).toBe(APPROVAL_SELECTORS.approve)
  })

  it('an operator: setApprovalForAll(operator, false)', () => {
    const call = revokeCall('operator', TOKEN, SPENDER, null)
    const d = decodeFunctionData({ abi: approvalsAbi, data: call.data as `0x${string}` })
    expect(d.functionName).toBe('setApprovalForAll')
    expect((d.args![0] as string).toLowerCase()).toBe(SPENDER)
    expect(d.args![1]).toBe(false)
    expect(call.text).toBe(`setApprovalForAll(${SPENDER}, false)`)
  })

  it('an ERC-721 single approval: approve(0x0, tokenId)', () => {
    const call = revokeCall('nft', TOKEN, SPENDER, 42n)
    const d = decodeFunctionData({ abi: approvalsAbi, data: call.data as `0x${string}` })
    expect(d.functionName).toBe('approve')
    expect(d.args).toEqual(['0x0000000000000000000000000000000000000000', 42n])
    expect(() => revokeCall('nft', TOKEN, SPENDER, null)).toThrow(/token id/)
  })
})

import { describe, expect, it } from 'vitest'
import { encodeErrorResult, stringToHex } from 'viem'
import { decodeRawRevert, revertReasonView } from './revert-reason'

const errorAbi = [
  { type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] },
  { type: 'error', name: 'Panic', inputs: [{ name: 'code', type: 'uint256' }] },
] as const

describe('revert reasons', () => {
  it('decodes a raw Error(string), with or without 0x, and a Panic', () => {
    const raw = encodeErrorResult({
      abi: errorAbi,
      errorName: 'Error',
      args: ['ERC20: transfer amount exceeds balance'],
    })
    expect(raw.startsWith('0x08c379a0')).toBe(true)
    expect(decodeRawRevert(raw)).toBe('ERC20: transfer amount exceeds balance')
    expect(revertReasonView({ raw: raw.slice(2) })).toEqual({
      text: 'ERC20: transfer amount exceeds balance',
      call: null,
      raw: raw.slice(2),
    })
    expect(decodeRawRevert(encodeErrorResult({ abi: errorAbi, errorName: 'Panic', args: [0x11n] }))).toBe('Panic 0x11')
  })

  it('shows printable bytes as text, anything else as the hex received', () => {
    expect(decodeRawRevert(stringToHex('Only chairperson can give right to vote.').slice(2))).toBe(
      'Only chairperson can give right to vote.',
    )
    expect(decodeRawRevert('0xdeadbeef00ff')).toBe('0xdeadbeef00ff')
    expect(decodeRawRevert('0x08c379a0zz')).toBe('0x08c379a0zz')
  })

  it('reads the three shapes: string, {raw} and a decoded call', () => {
    expect(revertReasonView('out of gas')).toEqual({ text: 'out of gas', call: null, raw: null })
    const call = {
      method_call: 'SomeCustomError(address addr, uint256 balance)',
      method_id: '50289a9f',
      parameters: [{ name: 'balance', type: 'uint256', value: '123' }],
    }
    expect(revertReasonView(call)).toEqual({
      text: call.method_call,
      call: { method: call.method_call, params: [{ name: 'balance', type: 'uint256', value: '123' }] },
      raw: null,
    })
    expect(revertReasonView(null)).toBeNull()
  })
})

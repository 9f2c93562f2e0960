import fc from 'fast-check'
import { encodeFunctionData, encodeFunctionResult, multicall3Abi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeAggregate3, encodeAggregate3 } from './aggregate3-codec'

const hexBytes = (min: number, max: number) =>
  fc.uint8Array({ minLength: min, maxLength: max }).map((b) => `0x${Buffer.from(b).toString('hex')}` as `0x${string}`)

describe('aggregate3 codec', () => {
  it("writes the call data viem's coder writes", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ target: hexBytes(20, 20), allowFailure: fc.boolean(), callData: hexBytes(0, 100) }), {
          maxLength: 8,
        }),
        (calls) => {
          expect(encodeAggregate3(calls)).toBe(
            encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate3', args: [calls] }),
          )
        },
      ),
    )
  })

  it("reads the results viem's coder writes, and refuses an answer cut short or with a bad flag", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ success: fc.boolean(), returnData: hexBytes(0, 100) }), { maxLength: 8 }),
        (results) => {
          const answer = encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: results })
          expect(decodeAggregate3(answer)).toEqual(
            results.map((r) => (r.success ? { ok: true, data: r.returnData } : { ok: false })),
          )
          if (results.length > 0) expect(decodeAggregate3(answer.slice(0, -64))).toBeNull()
        },
      ),
    )
    const one = encodeFunctionResult({
      abi: multicall3Abi,
      functionName: 'aggregate3',
      result: [{ success: true, returnData: '0x01' }],
    })
    // The success word of the only result (after the array's offset, length and one offset) set to 2.
    const flag = 2 + 64 * 3
    expect(decodeAggregate3(`${one.slice(0, flag)}${'2'.padStart(64, '0')}${one.slice(flag + 64)}`)).toBeNull()
    expect(decodeAggregate3('0x')).toBeNull()
  })
})

import { describe, expect, it } from 'vitest'
import { encodeFunctionData, encodeFunctionResult, type AbiFunction } from 'viem'
import { decodeResult, encodeCall, signatureOf, viewFunctions } from './abi-codec'

const A1 = `0x${'a1'.repeat(20)}`
const A2 = `0x${'b2'.repeat(20)}`
const B32 = `0x${'0f'.repeat(32)}`

/** A dozen ABI types, each with the text a user types, the value viem takes, and the text shown back. */
const CASES: {
  type: string
  components?: { name: string; type: string }[]
  text: string
  value: unknown
  shown: string
}[] = [
  {
    type: 'uint256',
    text: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
    value: 2n ** 256n - 1n,
    shown: (2n ** 256n - 1n).toString(),
  },
  { type: 'uint8', text: '0xff', value: 255n, shown: '255' },
  { type: 'int256', text: '-42', value: -42n, shown: '-42' },
  { type: 'int8', text: '-128', value: -128n, shown: '-128' },
  { type: 'address', text: A1.toUpperCase().replace('0X', '0x'), value: A1, shown: A1 },
  { type: 'bool', text: 'true', value: true, shown: 'true' },
  { type: 'string', text: 'héllo, world', value: 'héllo, world', shown: 'héllo, world' },
  { type: 'bytes', text: '0xdeadbeef', value: '0xdeadbeef', shown: '0xdeadbeef' },
  { type: 'bytes32', text: B32, value: B32, shown: B32 },
  { type: 'uint256[]', text: '["1", "2", "0x3"]', value: [1n, 2n, 3n], shown: '["1","2","3"]' },
  { type: 'address[2]', text: JSON.stringify([A1, A2]), value: [A1, A2], shown: JSON.stringify([A1, A2]) },
  {
    type: 'tuple',
    components: [
      { name: 'who', type: 'address' },
      { name: 'amount', type: 'uint128' },
    ],
    text: JSON.stringify([A2, '7']),
    value: { who: A2, amount: 7n },
    shown: JSON.stringify({ who: A2, amount: '7' }),
  },
  { type: 'bool[]', text: '[true, "false"]', value: [true, false], shown: '[true,false]' },
]

const fnOf = (c: (typeof CASES)[number]): AbiFunction => {
  const param = { name: 'x', type: c.type, ...(c.components ? { components: c.components } : {}) }
  return { type: 'function', name: 'probe', stateMutability: 'view', inputs: [param], outputs: [param] } as AbiFunction
}

describe('read-contract codec', () => {
  it.each(CASES.map((c) => [c.type, c] as const))('round-trips %s against viem', (_t, c) => {
    const fn = fnOf(c)
    const [parsed] = viewFunctions(JSON.stringify([fn]))
    expect(encodeCall(parsed!, [c.text])).toBe(
      encodeFunctionData({ abi: [fn], functionName: 'probe', args: [c.value] }),
    )
    const answer = encodeFunctionResult({ abi: [fn], functionName: 'probe', result: c.value as never })
    expect(decodeResult(parsed!, answer)).toEqual([{ name: 'x', type: c.type, value: c.shown }])
  })

  it('lists only view and pure functions, from an array or an artifact', () => {
    const abi = [
      {
        type: 'function',
        name: 'balanceOf',
        stateMutability: 'view',
        inputs: [{ name: 'owner', type: 'address' }],
        outputs: [{ name: '', type: 'uint256' }],
      },
      { type: 'function', name: 'transfer', stateMutability: 'nonpayable', inputs: [], outputs: [] },
      { type: 'event', name: 'Transfer', inputs: [] },
    ]
    const fns = viewFunctions(JSON.stringify({ abi }))
    expect(fns.map(signatureOf)).toEqual(['function balanceOf(address owner) view returns (uint256)'])
  })

  it('refuses a hostile ABI with an error naming what was wrong', () => {
    expect(() => viewFunctions(' '.repeat(50_000_000))).toThrow(
      'The ABI is 50.0 million characters; at most 2 million are read.',
    )
    const named = (name: string) =>
      JSON.stringify([{ type: 'function', name, stateMutability: 'view', inputs: [], outputs: [] }])
    expect(() => viewFunctions(named('owner\u202Egnp.exe'))).toThrow(
      'Entry 0 of the ABI has a function name that is not a plain identifier',
    )
    expect(() => viewFunctions(named('a'.repeat(101)))).toThrow('not a plain identifier')
    const typed = JSON.stringify([
      { type: 'function', name: 'f', stateMutability: 'view', inputs: [{ type: 'uint256; drop' }] },
    ])
    expect(() => viewFunctions(typed)).toThrow(
      'Parameter 0 of the inputs of f (entry 0) has an unknown type "uint256; drop"',
    )
    expect(() => viewFunctions('{')).toThrow('The ABI is not valid JSON')
    expect(() => viewFunctions('{"x":1}')).toThrow('neither a JSON array nor an artifact')
  })

  it('shows hidden characters in a decoded string as escapes, and a huge one cut', () => {
    const [fn] = viewFunctions(
      JSON.stringify([
        {
          type: 'function',
          name: 'name',
          stateMutability: 'view',
          inputs: [],
          outputs: [{ name: '', type: 'string' }],
        },
      ]),
    )
    const answer = (text: string) => encodeFunctionResult({ abi: [fn!], functionName: 'name', result: text as never })
    expect(decodeResult(fn!, answer('USD\u202Egnp\u0000'))[0]!.value).toBe('USD\\u{202e}gnp\\u{0}')
    expect(decodeResult(fn!, answer('x'.repeat(100_001)))[0]!.value).toBe(
      `${'x'.repeat(100_000)}… (100,001 characters)`,
    )
  })

  it('names the input that is wrong and why', () => {
    const inputs = [
      ['n', 'uint8'],
      ['h', 'bytes32'],
      ['l', 'uint256[2]'],
    ].map(([name, type]) => ({ name, type }))
    const [fn] = viewFunctions(JSON.stringify([{ type: 'function', name: 'f', stateMutability: 'view', inputs }]))
    expect(() => encodeCall(fn!, ['256', B32, '["1","2"]'])).toThrow(
      "input 1 (n, uint8): 256 is outside uint8's range 0 to 255",
    )
    expect(() => encodeCall(fn!, ['1', '0x12', '["1","2"]'])).toThrow('input 2 (h, bytes32): expected exactly 32 bytes')
    expect(() => encodeCall(fn!, ['1', B32, '["1"]'])).toThrow('input 3 (l, uint256[2]): expected exactly 2 items')
    expect(() => encodeCall(fn!, ['1', B32, '1,2'])).toThrow('write it as a JSON array')
    expect(() => encodeCall(fn!, ['1'])).toThrow('f takes 3 inputs; 1 were given.')
    expect(() => decodeResult({ ...fn!, outputs: [{ name: '', type: 'uint256' }] }, '0x')).toThrow('answered nothing')
  })
})

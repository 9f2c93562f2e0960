import { describe, expect, it } from 'vitest'
import { codeSize, EIP1967_SLOTS, serviceHint, slotAddress } from './address-kind'
import { readBlock } from './block'
import { makeTx, party } from '@shared/testing/service-samples'

const A = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`
const H = (b: string): string => `0x${b.repeat(32)}`
const block = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  number: '0x2a',
  hash: H('ef'),
  parentHash: H('ee'),
  timestamp: '0x6553f100',
  miner: A(7),
  baseFeePerGas: null,
  gasUsed: '0x5208',
  gasLimit: '0x1c9c380',
  transactions: [H('01')],
  ...over,
})

describe('block', () => {
  it('reads the header and the hashes, or the full objects summarised', () => {
    expect(readBlock(block(), 42, false, 'n')).toMatchObject({
      number: 42,
      timestamp: '2023-11-14T22:13:20.000Z',
      miner: A(7),
      baseFeePerGas: null,
      gasUsed: '21000',
      transactions: [H('01')],
      full: null,
    })
    const full = block({ transactions: [{ hash: H('02'), from: A(1), to: null, value: '0xde0b6b3a7640000' }] })
    expect(readBlock(full, 42, true, 'n').full).toEqual([
      { hash: H('02'), from: A(1), to: null, value: '1000000000000000000' },
    ])
  })

  it('names what was wrong in a bad answer', () => {
    expect(() => readBlock(null, 42, false, 'alpha')).toThrow("alpha's node has no block 42 yet")
    expect(() => readBlock(block({ transactions: Array(20_001).fill(H('01')) }), 42, false, 'n')).toThrow(
      'it lists 20,001 transactions; at most 20,000 are read',
    )
    expect(() => readBlock(block({ transactions: [H('01')] }), 42, true, 'n')).toThrow(
      'transaction 0 is not an object (asked for full transactions)',
    )
    expect(() => readBlock(block({ miner: 'nobody' }), 42, false, 'n')).toThrow('its miner is not an address')
  })
})

describe('address kind', () => {
  it('reads code size within bounds', () => {
    expect(codeSize('0x', A(1))).toBe(0)
    expect(codeSize('0x6080', A(1))).toBe(2)
    expect(() => codeSize(`0x${'00'.repeat(1024 * 1024 + 1)}`, A(1))).toThrow('1,048,577 bytes; at most 1,048,576')
    expect(() => codeSize('0x123', A(1))).toThrow('is not hex bytes')
  })

  it('reads the address an EIP-1967 slot holds; an empty slot or a non-address is none', () => {
    expect(EIP1967_SLOTS.implementation).toBe('0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc')
    expect(slotAddress(`0x${'00'.repeat(12)}${'ab'.repeat(20)}`, 'implementation', A(1))).toBe(`0x${'ab'.repeat(20)}`)
    expect(slotAddress('0x0', 'admin', A(1))).toBeNull()
    expect(slotAddress(H('ff'), 'beacon', A(1))).toBeNull()
    expect(() => slotAddress('nothing', 'admin', A(1))).toThrow('The admin slot answered for')
  })

  it("takes the service's word and the creation from loaded transactions", () => {
    const me = A(9)
    const creation = makeTx(1, {
      from: party(A(1)),
      to: null,
      created_contract: party(`0x${me.slice(2).toUpperCase()}`, {
        is_contract: true,
        name: 'Router',
        is_verified: true,
      }),
    })
    const call = makeTx(2, { to: party(me, { is_contract: true, name: 'Router', is_verified: true }) })
    expect(serviceHint([call, creation], me)).toEqual({
      isContract: true,
      name: 'Router',
      verified: true,
      creator: A(1),
      creationTx: creation.hash.toLowerCase(),
    })
    expect(serviceHint([call], A(5))).toBeNull()
  })
})

import { describe, expect, it } from 'vitest'
import { toTree } from './json-tree'

describe('rpc result decoding', () => {
  it('decodes a quantity result and wei readings', () => {
    expect(toTree('0x3039', 'eth_blockNumber').decoded).toEqual({ decimal: '12,345', note: null })
    expect(toTree('0x59682f00', 'eth_gasPrice').decoded).toEqual({ decimal: '1,500,000,000', note: '1.5 gwei' })
    expect(toTree('0xde0b6b3a7640000', 'eth_getBalance').decoded?.note).toBe('1 coin')
  })

  it('leaves data alone and decodes known fields of objects', () => {
    expect(toTree('0x6080', 'eth_getCode').decoded).toBeNull()
    const block = toTree(
      {
        number: '0x10',
        hash: `0x${'0'.repeat(64)}`,
        nonce: '0x0000000000000000',
        timestamp: '0x5f5e100',
        baseFeePerGas: '0x3b9aca00',
      },
      'eth_getBlockByNumber',
    )
    const byKey = Object.fromEntries(block.children.map((c) => [c.key, c.decoded]))
    expect(byKey.number).toEqual({ decimal: '16', note: null })
    expect(byKey.hash).toBeNull()
    expect(byKey.nonce).toBeNull()
    expect(byKey.timestamp?.note).toBe('1973-03-03T09:46:40.000Z')
    expect(byKey.baseFeePerGas?.note).toBe('1 gwei')
    const fees = toTree({ baseFeePerGas: ['0x1', '0x2'] }, 'eth_feeHistory')
    expect(fees.children[0]!.children.map((c) => c.decoded?.decimal)).toEqual(['1', '2'])
  })
})

import { keccak256, toHex } from 'viem'
import { describe, expect, it } from 'vitest'
import { addressTopic, TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC, topicAddress } from './events'

describe('token event topics', () => {
  it('are the keccak-256 of the event signatures', () => {
    expect(TRANSFER_TOPIC).toBe(keccak256(toHex('Transfer(address,address,uint256)')))
    expect(TRANSFER_SINGLE_TOPIC).toBe(keccak256(toHex('TransferSingle(address,address,address,uint256,uint256)')))
    expect(TRANSFER_BATCH_TOPIC).toBe(keccak256(toHex('TransferBatch(address,address,address,uint256[],uint256[])')))
  })

  it('pad an address into a topic and read it back', () => {
    const a = '0x00000000000000000000000000000000000000Ab'
    expect(addressTopic(a)).toBe(`0x${'0'.repeat(62)}ab`)
    expect(topicAddress(addressTopic(a))).toBe(a.toLowerCase())
    expect(topicAddress(`0x${'f'.repeat(64)}`)).toBeNull()
    expect(topicAddress(undefined)).toBeNull()
  })
})

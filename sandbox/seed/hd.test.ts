import { describe, expect, it } from 'vitest'
import { mnemonicToAccount } from 'viem/accounts'
import { deriveAddresses } from './hd'
import { SEED_MNEMONIC } from './roles'

describe('native HD derivation', () => {
  it('derives the same addresses as viem for the seed mnemonic', () => {
    const viem = Array.from({ length: 24 }, (_, i) => mnemonicToAccount(SEED_MNEMONIC, { addressIndex: i }).address)
    expect(deriveAddresses(SEED_MNEMONIC, 24)).toEqual(viem)
  })

  it('matches viem for another mnemonic too (not a table of known answers)', () => {
    const other = 'test test test test test test test test test test test junk'
    expect(deriveAddresses(other, 3)).toEqual(
      [0, 1, 2].map((i) => mnemonicToAccount(other, { addressIndex: i }).address),
    )
    expect(deriveAddresses(other, 1)[0]).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
  })
})

import { describe, expect, it } from 'vitest'
import { checkAddress, parseAddress } from './address'

// The EIP-55 test vector, checksummed and lowercase.
const SUM = '0x52908400098527886E0F7030069857D2E4169EE7'
const LOW = '0x52908400098527886e0f7030069857d2e4169ee7'

describe('parseAddress', () => {
  it('answers the lowercase address for checksummed, lowercase and all-uppercase text', () => {
    for (const text of [SUM, LOW, `0x${LOW.slice(2).toUpperCase()}`, ` ${SUM} `])
      expect(parseAddress(text)).toEqual({ ok: true, address: LOW })
  })

  it('refuses a mixed case that does not match the checksum, and says so', () => {
    const typo = `${SUM.slice(0, -1)}e`
    expect(parseAddress(typo)).toEqual({ ok: false, message: expect.stringMatching(/checksum \(EIP-55\)/) })
  })

  it('names what is wrong with text that is not an address at all', () => {
    expect(parseAddress('')).toMatchObject({ ok: false, message: expect.stringMatching(/Enter an address/) })
    expect(parseAddress('52908400098527886e0f7030069857d2e4169ee7')).toMatchObject({ message: /starts with 0x/ })
    expect(parseAddress(LOW.slice(0, -1))).toMatchObject({ message: /this one has 39/ })
    expect(parseAddress(`${LOW.slice(0, -1)}g`)).toMatchObject({ message: /Character 42 \("g"\)/ })
  })

  it('agrees with checkAddress, which answers the same address checksummed', () => {
    for (const text of [SUM, LOW, `${SUM.slice(0, -1)}e`, '0x12']) {
      const parsed = parseAddress(text)
      const checked = checkAddress(text)
      expect(checked.ok).toBe(parsed.ok)
      if (checked.ok && parsed.ok) expect(checked.address).toBe(SUM)
      else expect(checked).toEqual(parsed)
    }
  })
})

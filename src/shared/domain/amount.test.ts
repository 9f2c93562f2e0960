import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  compareAmounts,
  exactFiatValue,
  fiatValue,
  formatFiat,
  formatCount,
  formatGwei,
  formatTokenAmount,
  formatUnits,
  formatUnitsDetailed,
  parseAmount,
  parseDecimalNumber,
  roundScaled,
  sumScaled,
  parseDecimals,
  MAX_SAFE_BIGINT,
  parseHexQuantity,
  shareBasisPoints,
  sumAmounts,
} from './amount'

const UINT256_MAX = 2n ** 256n - 1n

describe('formatUnits', () => {
  it('formats 0 decimals as the integer, grouped', () => {
    expect(formatUnits(0n, 0)).toBe('0')
    expect(formatUnits(7n, 0)).toBe('7')
    expect(formatUnits(1234567n, 0)).toBe('1,234,567')
    expect(formatUnits(1234567n, 0, { group: false })).toBe('1234567')
  })

  it('formats 6 decimals exactly, trimming trailing zeros', () => {
    expect(formatUnits(1_500_000n, 6)).toBe('1.5')
    expect(formatUnits(1n, 6)).toBe('0.000001')
    expect(formatUnits(1_000_000n, 6)).toBe('1')
    expect(formatUnits(123_456_789_012n, 6)).toBe('123,456.789012')
    expect(formatUnits(0n, 6)).toBe('0')
  })

  it('formats 18 decimals exactly', () => {
    expect(formatUnits(10n ** 18n, 18)).toBe('1')
    expect(formatUnits(1n, 18)).toBe('0.000000000000000001')
    expect(formatUnits(1_234_567_890_123_456_789n, 18)).toBe('1.234567890123456789')
    expect(formatUnits(21_000n * 1_000_000_000n, 18)).toBe('0.000021')
  })

  it('formats huge values without losing a digit', () => {
    expect(formatUnits(UINT256_MAX, 0, { group: false })).toBe(UINT256_MAX.toString())
    expect(formatUnits(UINT256_MAX, 18, { group: false })).toBe(
      '115792089237316195423570985008687907853269984665640564039457.584007913129639935',
    )
    expect(formatUnits(UINT256_MAX, 18)).toBe(
      '115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457.584007913129639935',
    )
  })

  it('cuts (never rounds) when asked to, and says so', () => {
    expect(formatUnitsDetailed(1_999_999n, 6, { maxFractionDigits: 2 })).toEqual({ text: '1.99', exact: false })
    expect(formatUnitsDetailed(1_500_000n, 6, { maxFractionDigits: 2 })).toEqual({ text: '1.5', exact: true })
    expect(formatUnitsDetailed(1n, 18, { maxFractionDigits: 3 })).toEqual({ text: '<0.001', exact: false })
    expect(formatUnitsDetailed(1n, 18, { maxFractionDigits: 0 })).toEqual({ text: '<1', exact: false })
  })

  it('round-trips any uint256 at any decimals (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: UINT256_MAX }), fc.integer({ min: 0, max: 77 }), (v, d) => {
        const text = formatUnits(v, d, { group: false })
        const [int, frac = ''] = text.split('.')
        expect(BigInt(int! + frac.padEnd(d, '0'))).toBe(v)
      }),
    )
  })
})

describe('formatTokenAmount', () => {
  it('formats the wire strings exactly', () => {
    expect(formatTokenAmount('1500000', '6')).toMatchObject({
      known: true,
      text: '1.5',
      value: 1_500_000n,
      decimals: 6,
    })
    expect(formatTokenAmount('42', '0')).toMatchObject({ known: true, text: '42' })
    expect(formatTokenAmount('1000000000000000000000', '18')).toMatchObject({ known: true, text: '1,000' })
  })

  it('shows the raw count when decimals are null (NFTs)', () => {
    expect(formatTokenAmount('3', null)).toMatchObject({ known: true, text: '3', decimals: 0 })
  })

  it('marks nulls and malformed values unknown instead of throwing', () => {
    for (const bad of [null, undefined, '', '-1', '1.5', '1e18', ' 12', 'abc', 12, {}]) {
      expect(formatTokenAmount(bad, '18')).toMatchObject({ known: false, text: 'unknown', value: null })
    }
    expect(formatTokenAmount('12345', 'x')).toMatchObject({ known: false, text: '12,345 units', value: 12345n })
    expect(formatTokenAmount('12345', '300')).toMatchObject({ known: false, decimals: null })
  })

  it('keeps the exact text when the shown one is cut', () => {
    const a = formatTokenAmount('1234567890123456789', '18', { maxFractionDigits: 4 })
    expect(a.text).toBe('1.2345')
    expect(a.exact).toBe('1.234567890123456789')
  })
})

describe('parsers', () => {
  it('parses amounts and decimals strictly', () => {
    expect(parseAmount('0')).toBe(0n)
    expect(parseAmount(UINT256_MAX.toString())).toBe(UINT256_MAX)
    expect(parseAmount('0x10')).toBeNull()
    expect(parseAmount(-1n)).toBeNull()
    expect(parseDecimals('18')).toBe(18)
    expect(parseDecimals('255')).toBe(255)
    expect(parseDecimals('256')).toBeNull()
    expect(parseDecimals('1000')).toBeNull()
    expect(parseDecimals(null)).toBeNull()
    expect(parseDecimals(6)).toBe(6)
    expect(parseDecimals(6.5)).toBeNull()
  })

  it('parses decimal numbers (rates) exactly', () => {
    expect(parseDecimalNumber('1843.21')).toEqual({ units: 184321n, scale: 2 })
    expect(parseDecimalNumber('1')).toEqual({ units: 1n, scale: 0 })
    expect(parseDecimalNumber('0.000000000000000000001')).toEqual({ units: 1n, scale: 21 })
    for (const bad of ['1.', '.5', '-1', '1e3', '', null, 5]) expect(parseDecimalNumber(bad)).toBeNull()
  })

  it('parses canonical hex quantities only', () => {
    expect(parseHexQuantity('0x0')).toBe(0n)
    expect(parseHexQuantity('0x1a')).toBe(26n)
    expect(parseHexQuantity('0x01')).toBe(1n)
    expect(parseHexQuantity('0x20000000000000', MAX_SAFE_BIGINT)).toBeNull()
    expect(parseHexQuantity('0x1fffffffffffff', MAX_SAFE_BIGINT)).toBe(MAX_SAFE_BIGINT)
    expect(parseHexQuantity('0x')).toBeNull()
    expect(parseHexQuantity('1a')).toBeNull()
  })
})

describe('fiat', () => {
  it('multiplies exactly and rounds half up to cents', () => {
    // 1.5 tokens (6 decimals) at 2.005 = 3.0075 → 3.01
    expect(fiatValue('1500000', '6', '2.005')).toBe(301n)
    // 1 wei at 1843.21 is far below a cent
    expect(fiatValue('1', '18', '1843.21')).toBe(0n)
    // 2.5 ETH at 1843.21 = 4608.025 → 4608.03
    expect(fiatValue('2500000000000000000', '18', '1843.21')).toBe(460803n)
    expect(formatFiat(460803n)).toBe('4,608.03')
    expect(formatFiat(100n)).toBe('1.00')
    expect(formatFiat(5n)).toBe('0.05')
    expect(formatFiat(0n)).toBe('0.00')
  })

  it('sums exact values across scales and rounds the sum once', () => {
    // 1.005 at 1 (scale 6) + 0.0049 at 1 (scale 4 + 0): 1.0099 → 1.01, where the cents add to 1.01 + 0.00.
    const a = exactFiatValue('1005000', '6', '1')!
    const b = exactFiatValue('49', '4', '1.0')!
    expect(a).toEqual({ units: 1005000n, scale: 6 })
    expect(sumScaled([a, b])).toEqual({ units: 1009900n, scale: 6 })
    expect(roundScaled(sumScaled([a, a, a]))).toBe(302n)
    expect(3n * fiatValue('1005000', '6', '1')!).toBe(303n)
    expect(sumScaled([])).toEqual({ units: 0n, scale: 0 })
    expect(exactFiatValue('1', '18', null)).toBeNull()
  })

  it('keeps huge values exact', () => {
    const v = fiatValue(UINT256_MAX.toString(), '0', '1.00')
    expect(v).toBe(UINT256_MAX * 100n)
  })

  it('is null when anything is missing', () => {
    expect(fiatValue('1', '18', null)).toBeNull()
    expect(fiatValue(null, '18', '1')).toBeNull()
    expect(fiatValue('1', null, '1')).toBeNull()
    expect(fiatValue('1', '18', 'NaN')).toBeNull()
  })
})

describe('compare, sum, share, gwei', () => {
  it('compares amounts across decimals', () => {
    const one6 = { value: 1_000_000n, decimals: 6 }
    const one18 = { value: 10n ** 18n, decimals: 18 }
    const two0 = { value: 2n, decimals: 0 }
    expect(compareAmounts(one6, one18)).toBe(0)
    expect(compareAmounts(one6, two0)).toBe(-1)
    expect(compareAmounts(two0, one18)).toBe(1)
    expect(compareAmounts({ value: null, decimals: null }, one6)).toBe(1)
    expect(compareAmounts(one6, { value: null, decimals: null })).toBe(-1)
  })

  it('sums, shares and converts to gwei', () => {
    expect(sumAmounts(['1', '2', 'bad', null, UINT256_MAX.toString()])).toBe(UINT256_MAX + 3n)
    expect(shareBasisPoints(1n, 3n)).toBe(3333)
    expect(shareBasisPoints(1n, 0n)).toBe(0)
    expect(formatGwei('1500000000')).toBe('1.5')
    expect(formatGwei('1')).toBe('<0.001')
    expect(formatGwei('nope')).toBeNull()
  })
})

describe('formatCount', () => {
  it('groups a count in thousands as amounts are, like en-US', () => {
    for (const n of [0, 7, 999, 1000, 10_002, 1_234_567, 9_007_199_254_740_991])
      expect(formatCount(n)).toBe(n.toLocaleString('en-US'))
  })
})

describe('long numbers: every formatting path is one pass', () => {
  // No timing here: the inputs are long enough that quadratic code (as before: a lookahead regex
  // for grouping, 23 s for 200,000 digits; `/0+$/` for trimming, 14 s for 100,000 zeros) runs
  // past the test's time limit (30 s), where one pass takes milliseconds.
  it('groups a 400,000-digit amount exactly, in groups of three from the right', () => {
    const digits = '9876543210'.repeat(40_000)
    const text = formatUnits(BigInt(digits), 0)
    const groups = text.split(',')
    expect(groups.join('')).toBe(digits)
    expect(groups[0]).toBe('9')
    expect(groups.slice(1).every((g) => g.length === 3)).toBe(true)
  })

  it('trims a fraction of 250,000 zeros before its last digit', () => {
    expect(formatUnits(1n, 250_000)).toBe(`0.${'0'.repeat(249_999)}1`)
    expect(formatUnits(10n ** 100_000n + 1n, 100_000)).toBe(`1.${'0'.repeat(99_999)}1`)
    expect(formatUnitsDetailed(1n, 100_000, { maxFractionDigits: 6 })).toEqual({ text: '<0.000001', exact: false })
    expect(formatUnitsDetailed(1n, 100_000, { maxFractionDigits: 50_000 }).text).toBe('<0.' + '0'.repeat(49_999) + '1')
  })

  it('groups as the locale does (property, signs included)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 120n), max: 10n ** 120n }), (n) => {
        expect(formatUnits(n, 0)).toBe(n.toLocaleString('en-US'))
      }),
    )
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(formatCount(n)).toBe(n.toLocaleString('en-US'))
      }),
    )
  })

  it('trims trailing zeros as the exact value says (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 90n }), fc.integer({ min: 0, max: 100 }), (v, d) => {
        const text = formatUnits(v, d, { group: false })
        const [int, frac = ''] = text.split('.')
        expect(frac.endsWith('0')).toBe(false)
        expect(BigInt(int! + frac.padEnd(d, '0'))).toBe(v)
      }),
    )
  })
})

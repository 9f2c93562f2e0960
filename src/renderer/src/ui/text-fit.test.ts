import { describe, expect, it } from 'vitest'
import { mayOverflow, textWidthEm } from './text-fit'

describe('text-fit', () => {
  it('bounds a text from above: the widest letters count most', () => {
    expect(textWidthEm('iii')).toBeLessThan(textWidthEm('mmm'))
    expect(textWidthEm('WWW')).toBeGreaterThanOrEqual(3)
    expect(textWidthEm('0123456789', true)).toBeCloseTo(6.5)
  })

  it('short values fit their cells; long amounts and names do not', () => {
    // The list's value cell is 9 em of its monospace font.
    expect(mayOverflow('1,234.567891', 9, true)).toBe(false)
    expect(
      mayOverflow(
        '115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457.584007913129639935',
        9,
        true,
      ),
    ).toBe(true)
    expect(mayOverflow('12 d ago', 6.5)).toBe(false)
    expect(mayOverflow('swapExactTokensForTokensSupportingFeeOnTransferTokens', 9.8)).toBe(true)
  })

  it('counts any character outside ASCII as wide, so CJK and emoji are clipped early', () => {
    expect(mayOverflow('代币代币代', 6.5)).toBe(true)
    expect(mayOverflow('🚀🚀🚀🚀🚀', 6.5)).toBe(true)
    expect(mayOverflow('abcde', 6.5)).toBe(false)
  })
})

import { afterEach, describe, expect, it, vi } from 'vitest'
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

describe('text-fit measured widths', () => {
  const font = { css: '14px sans-serif', px: 14, mono: false }

  /** A canvas whose font measures 7 px per character, counting its calls. */
  function fakeCanvas() {
    const measureText = vi.fn((text: string) => ({ width: text.length * 7 }) as TextMetrics)
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
      font: '',
      measureText,
    } as unknown as CanvasRenderingContext2D)
    return measureText
  }

  afterEach(() => vi.restoreAllMocks())

  it('measures with a canvas once per text and font, with a small margin', async () => {
    const measureText = fakeCanvas()
    vi.resetModules()
    const fit = await import('./text-fit')
    expect(fit.textWidthPx('abcd', font)).toBe(28 + 2)
    expect(fit.textWidthPx('abcd', font)).toBe(30)
    expect(fit.textWidthPx('abcd', { ...font, css: '10px sans-serif', px: 10 })).toBe(30)
    expect(measureText).toHaveBeenCalledTimes(2)
  })

  it('measures only what the upper bound cannot settle, and then by the measure', async () => {
    const measureText = fakeCanvas()
    vi.resetModules()
    const fit = await import('./text-fit')
    // 4 narrow-enough letters: the bound (4 × 0.7 em × 14 px = 39.2 px) fits a 50 px box.
    expect(fit.mayOverflowPx('abcd', font, 50)).toBe(false)
    expect(measureText).not.toHaveBeenCalled()
    // 10 letters: the bound (98 px) does not fit 80 px; the measure (72 px) does.
    expect(fit.mayOverflowPx('abcdefghij', font, 80)).toBe(false)
    expect(fit.mayOverflowPx('abcdefghij', font, 70)).toBe(true)
    expect(measureText).toHaveBeenCalledTimes(1)
  })

  it('falls back to the upper bound where there is no canvas', async () => {
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null)
    vi.resetModules()
    const fit = await import('./text-fit')
    expect(fit.textWidthPx('abcd', font)).toBeCloseTo(fit.textWidthEm('abcd') * 14)
    expect(fit.mayOverflowPx('abcdefghij', font, 80)).toBe(true)
  })
})

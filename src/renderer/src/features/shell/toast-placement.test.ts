import { describe, expect, it } from 'vitest'
import { chooseToastCorner, stackBox } from './toast-placement'

const base = {
  stack: { width: 356, height: 60 },
  viewport: { width: 1280, height: 720 },
  inset: { top: 80, side: 16, bottom: 16 },
}

describe('toast placement', () => {
  it('sits bottom-right while nothing is there', () => {
    expect(stackBox('bottom-right', base)).toEqual({ left: 908, top: 644, right: 1264, bottom: 704 })
    expect(chooseToastCorner({ ...base, avoid: [{ left: 0, top: 0, right: 300, bottom: 300 }] })).toBe('bottom-right')
  })

  it('moves off a primary action, to the first free corner', () => {
    const saveLimits = { left: 970, top: 660, right: 1070, bottom: 692 }
    expect(chooseToastCorner({ ...base, avoid: [saveLimits] })).toBe('top-right')
    const send = { left: 1000, top: 100, right: 1100, bottom: 130 }
    expect(chooseToastCorner({ ...base, avoid: [saveLimits, send] })).toBe('bottom-left')
  })

  it('covers as little as it can when every corner is taken', () => {
    const corners = [
      { left: 1200, top: 690, right: 1264, bottom: 704 },
      { left: 900, top: 80, right: 1264, bottom: 140 },
      { left: 0, top: 600, right: 400, bottom: 720 },
      { left: 0, top: 0, right: 400, bottom: 200 },
    ]
    expect(chooseToastCorner({ ...base, avoid: corners })).toBe('bottom-right')
  })
})

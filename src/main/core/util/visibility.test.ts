import { describe, expect, it } from 'vitest'
import { createVisibility } from './visibility'

describe('createVisibility', () => {
  it('follows a single source, reporting only changes', () => {
    const seen: boolean[] = []
    const report = createVisibility((v) => seen.push(v))
    report('page', true)
    report('page', true)
    report('page', false)
    expect(seen).toEqual([true, false])
  })

  it("lets no source overrule another source's hidden", () => {
    const seen: boolean[] = []
    const report = createVisibility((v) => seen.push(v))
    report('host', true)
    report('page', true)
    report('host', false) // screen locked
    report('page', true) // the page says visible again: still hidden
    expect(seen).toEqual([true, false])
    report('host', true) // unlocked
    expect(seen).toEqual([true, false, true])
  })
})

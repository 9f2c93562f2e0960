import { describe, expect, it } from 'vitest'
import { mapLimited } from './map-limited'

describe('mapLimited', () => {
  it('keeps the items’ order and never runs more than its width at once', async () => {
    let running = 0
    let most = 0
    const out = await mapLimited([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      running++
      most = Math.max(most, running)
      // Later items finish first: the order of the results must not follow the order of finishing.
      for (let tick = 0; tick < n; tick++) await Promise.resolve()
      running--
      return n * 10
    })
    expect(out).toEqual([50, 10, 40, 20, 30, 0, 60])
    expect(most).toBe(3)
  })

  it('answers an empty list at once, and a failure fails the whole', async () => {
    expect(await mapLimited([], 4, async () => 1)).toEqual([])
    await expect(
      mapLimited([1, 2], 2, async (n) => {
        if (n === 2) throw new Error('no 2')
        return n
      }),
    ).rejects.toThrow('no 2')
  })
})

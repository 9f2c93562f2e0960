import { describe, expect, it } from 'vitest'
import { edgeData } from './graph-elements'
import { placedGraphSvg } from './graph-svg'

const A = '0x1111111111111111111111111111111111111111'
const B = '0x2222222222222222222222222222222222222222'

describe('the graph as an exhibit', () => {
  it('labels an edge with its amount and dates, and keeps its first time for the window', () => {
    const e = {
      id: 'e',
      from: A,
      to: B,
      asset: 'native',
      symbol: 'coin',
      decimals: 18,
      value: 1500000000000000000n,
      count: 2,
      internal: 0,
    }
    const day = Date.UTC(2026, 0, 2)
    expect(edgeData({ ...e, firstMs: day, lastMs: day + 3 * 86_400_000 }, new Set())).toMatchObject({
      detail: '1.5 coin · 2026-01-02 to 2026-01-05',
      firstMs: day,
    })
    expect(edgeData({ ...e, firstMs: day, lastMs: day }, new Set()).detail).toBe('1.5 coin · 2026-01-02')
  })

  it('draws the graph alone as SVG where the canvas placed it, text escaped, nothing that loads', () => {
    const svg = placedGraphSvg(
      [
        { id: A, label: 'Victim', x: 0, y: 0, root: true },
        { id: B, label: '<img src=x onerror=alert(1)>', x: 200, y: -50, root: false },
      ],
      [{ source: A, target: B, detail: '1.5 coin · 2026-01-02', onPath: true }],
      'Flow graph "of" A',
    )
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml')
    expect(doc.querySelector('parsererror')).toBeNull()
    expect([...doc.querySelectorAll('g.node text')].map((t) => t.textContent)).toEqual([
      'Victim',
      '<img src=x onerror=alert(1)>',
    ])
    expect(doc.querySelector('circle:not([cx="0"])')!.getAttribute('cx')).toBe('200')
    expect(doc.querySelector('text.detail')!.textContent).toBe('1.5 coin · 2026-01-02')
    expect(doc.querySelector('line')!.getAttribute('class')).toBe('path')
    expect(doc.querySelectorAll('img, script, image, a, foreignObject')).toHaveLength(0)
  })
})

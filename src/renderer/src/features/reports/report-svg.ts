import type { HistoryPoint } from '../analysis'
import { esc } from './html-escape'

export interface Point {
  x: number
  y: number
}

/**
 * Rings by hop around the root, like the flow graph's concentric layout: hop 0 in the centre,
 * each hop one ring further out, the addresses of a ring spread evenly in the given order.
 * Deterministic (same input, same picture), so a report reads the same each time it is made.
 */
export function ringLayout(byHop: ReadonlyMap<string, number>, ringGap = 130): Map<string, Point> {
  const rings = new Map<number, string[]>()
  for (const [id, hop] of byHop) {
    const ring = rings.get(hop) ?? []
    ring.push(id)
    rings.set(hop, ring)
  }
  const out = new Map<string, Point>()
  for (const [hop, ids] of rings) {
    ids.sort()
    // A ring far out holds more: it widens so its nodes (and their labels) keep about 70 px apart.
    const radius = hop === 0 && ids.length === 1 ? 0 : Math.max(hop * ringGap, (ids.length * 70) / (2 * Math.PI))
    ids.forEach((id, i) => {
      const angle = (2 * Math.PI * i) / ids.length - Math.PI / 2
      out.set(id, { x: radius * Math.cos(angle) + 0, y: radius * Math.sin(angle) + 0 })
    })
  }
  return out
}

export interface SvgNode {
  id: string
  label: string
  hop: number
  root: boolean
}

export interface SvgEdge {
  from: string
  to: string
}

const r1 = (n: number): string => (Math.round(n * 10) / 10).toString()

/** The flow graph as a picture: nodes on rings by hop, edges as arrows. Text is escaped. */
export function flowGraphSvg(nodes: readonly SvgNode[], edges: readonly SvgEdge[], title: string): string {
  const pos = ringLayout(new Map(nodes.map((n) => [n.id, n.hop])))
  let max = 60
  for (const p of pos.values()) max = Math.max(max, Math.abs(p.x) + 80, Math.abs(p.y) + 30)
  const size = Math.ceil(max * 2)
  const lines = edges
    .filter((e) => pos.has(e.from) && pos.has(e.to))
    .map((e) => {
      const a = pos.get(e.from)!
      const b = pos.get(e.to)!
      return `<line x1="${r1(a.x)}" y1="${r1(a.y)}" x2="${r1(b.x)}" y2="${r1(b.y)}" marker-end="url(#arrow)"/>`
    })
  const circles = nodes.map((n) => {
    const p = pos.get(n.id)!
    return (
      `<g class="${n.root ? 'node root' : 'node'}"><circle cx="${r1(p.x)}" cy="${r1(p.y)}" r="${n.root ? 9 : 6}"/>` +
      `<text x="${r1(p.x)}" y="${r1(p.y + 18)}">${esc(n.label)}</text></g>`
    )
  })
  return (
    `<svg class="graph" role="img" aria-label="${esc(title)}" ` +
    `viewBox="${-size / 2} ${-size / 2} ${size} ${size}" width="100%" style="max-width:${Math.min(size, 900)}px">` +
    `<title>${esc(title)}</title>` +
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="16" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">' +
    '<path d="M0,0L10,5L0,10z" class="arrowhead"/></marker></defs>' +
    `<g class="edges">${lines.join('')}</g><g class="nodes">${circles.join('')}</g></svg>`
  )
}

/**
 * A stepped line of balance points (already sampled to a budget) as an SVG polyline. Values are
 * bigint; they are placed by their share of the range, worked out in bigint and only then made a
 * pixel, so huge 18-decimal amounts keep their shape.
 */
export function historySvg(points: readonly HistoryPoint[], title: string, lowText: string, highText: string): string {
  const w = 640
  const h = 160
  const pad = 6
  if (points.length === 0) return ''
  let lo = points[0]!.value
  let hi = lo
  for (const p of points) {
    if (p.value < lo) lo = p.value
    if (p.value > hi) hi = p.value
  }
  const t0 = points[0]!.ms
  const span = Math.max(1, points[points.length - 1]!.ms - t0)
  const range = hi - lo
  const yOf = (v: bigint): number =>
    range === 0n ? h / 2 : pad + (h - 2 * pad) * (1 - Number(((v - lo) * 10_000n) / range) / 10_000)
  const xOf = (ms: number): number => pad + ((w - 2 * pad) * (ms - t0)) / span
  const coords: string[] = []
  points.forEach((p, i) => {
    // Stepped: the balance holds until the next change.
    if (i > 0) coords.push(`${r1(xOf(p.ms))},${r1(yOf(points[i - 1]!.value))}`)
    coords.push(`${r1(xOf(p.ms))},${r1(yOf(p.value))}`)
  })
  return (
    `<svg class="chart" role="img" aria-label="${esc(title)}" viewBox="0 0 ${w} ${h}" width="100%" style="max-width:${w}px">` +
    `<title>${esc(title)}</title>` +
    `<rect x="0" y="0" width="${w}" height="${h}" class="frame"/>` +
    `<polyline points="${coords.join(' ')}"/>` +
    `<text x="${pad}" y="${h - pad}" class="axis">${esc(lowText)}</text>` +
    `<text x="${pad}" y="${pad + 10}" class="axis">${esc(highText)}</text></svg>`
  )
}

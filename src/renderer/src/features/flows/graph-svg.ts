import { esc } from '../../ui/html-escape'

/** A node as drawn on the canvas, at its place there (graph units). */
export interface PlacedNode {
  id: string
  label: string
  x: number
  y: number
  root: boolean
}

export interface PlacedEdge {
  source: string
  target: string
  /** Amount and dates, when shown on the canvas. */
  detail: string | null
  onPath: boolean
}

const r1 = (n: number): string => (Math.round(n * 10) / 10).toString()

/**
 * The graph alone as one SVG file, as the canvas shows it (same places, same labels, the edge
 * details when they are on): for a slide or a filing. Light colours that print; every text
 * escaped; nothing in it loads anything.
 */
export function placedGraphSvg(nodes: readonly PlacedNode[], edges: readonly PlacedEdge[], title: string): string {
  const pos = new Map(nodes.map((n) => [n.id, n]))
  const xs = nodes.map((n) => n.x)
  const ys = nodes.map((n) => n.y)
  const pad = 90
  const minX = Math.min(0, ...xs) - pad
  const minY = Math.min(0, ...ys) - pad
  const w = Math.max(...xs, 0) - minX + pad
  const h = Math.max(...ys, 0) - minY + pad
  const lines = edges
    .filter((e) => pos.has(e.source) && pos.has(e.target))
    .map((e) => {
      const a = pos.get(e.source)!
      const b = pos.get(e.target)!
      const line = `<line x1="${r1(a.x)}" y1="${r1(a.y)}" x2="${r1(b.x)}" y2="${r1(b.y)}"${e.onPath ? ' class="path"' : ''} marker-end="url(#arrow)"/>`
      const text = e.detail
        ? `<text class="detail" x="${r1((a.x + b.x) / 2)}" y="${r1((a.y + b.y) / 2 - 3)}">${esc(e.detail)}</text>`
        : ''
      return line + text
    })
  const dots = nodes.map(
    (n) =>
      `<g class="${n.root ? 'node root' : 'node'}"><circle cx="${r1(n.x)}" cy="${r1(n.y)}" r="${n.root ? 10 : 7}"/>` +
      `<text x="${r1(n.x)}" y="${r1(n.y + 20)}">${esc(n.label)}</text></g>`,
  )
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${r1(minX)} ${r1(minY)} ${r1(w)} ${r1(h)}" width="${Math.ceil(w)}" height="${Math.ceil(h)}" role="img" aria-label="${esc(title)}">` +
    `<title>${esc(title)}</title>` +
    '<style>line{stroke:#8a96a3;stroke-width:1.2}line.path{stroke:#b3361b;stroke-width:3}circle{fill:#5b6b7c;stroke:#fff}' +
    '.root circle{fill:#0b5cad}text{font:10px system-ui,sans-serif;text-anchor:middle;fill:#16202a;paint-order:stroke;stroke:#fff;stroke-width:3px}' +
    '.detail{font-size:8px;fill:#4a5663}.arrowhead{fill:#8a96a3}</style>' +
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="18" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">' +
    '<path d="M0,0L10,5L0,10z" class="arrowhead"/></marker></defs>' +
    `<rect x="${r1(minX)}" y="${r1(minY)}" width="${r1(w)}" height="${r1(h)}" fill="#fff"/>` +
    `<g>${lines.join('')}</g><g>${dots.join('')}</g></svg>\n`
  )
}

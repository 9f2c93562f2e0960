/**
 * `npm run bench:flows`: the flow graph's work for 500 addresses and 2,000 edges, measured in
 * Node on a generated graph (cytoscape headless: layout positions, no drawing). Three runs,
 * each printed:
 *
 *   flows run=1 nodes=500 edges=2000 build_ms=… filter_ms=… layout_concentric_ms=… layout_cose_ms=… path_ms=… select_ms=…
 *
 * - build_ms: buildFlowGraph over the transactions that make those edges (each edge 1-4 movements,
 *   a third of them token transfers).
 * - filter_ms: one filter change as the view does it (hop and minimum limit, hub collapse, elements).
 * - layout_concentric_ms: the layout the view uses (rings by hop); with --cose, layout_cose_ms:
 *   cytoscape's force layout, for comparison (tens of seconds here: why the view does not use it).
 * - path_ms: findPath between the two farthest addresses within 6 hops.
 * - select_ms: selecting one node and centring on it.
 *
 * Then the same elements drawn in headless Chromium with --disable-gpu (canvas 2D, the view's
 * style and layout), three runs, each printed:
 *
 *   flows-browser run=1 nodes=500 edges=2000 first_draw_ms=… zoom_frame_ms_mean=… zoom_frame_ms_max=… pan_frame_ms_mean=… pan_frame_ms_max=… select_frame_ms=…
 *
 * - first_draw_ms: creating the graph, its layout and the first two painted frames.
 * - zoom/pan frame times: 20 zoom steps and 20 pan steps, each waited to its painted frame.
 *
 * Options: --nodes N (500), --edges N (2000), --runs N (3), --cose, --no-browser, --shot FILE.png
 * (a picture of the last run's graph, to judge it readable).
 */
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import { resolve } from 'node:path'
import cytoscape from 'cytoscape'
import { launchBenchBrowser } from './ui-support'
import type { Transaction } from '@shared/domain/service-schemas'
import { buildFlowGraph } from '../src/renderer/src/features/flows/flow-graph'
import { limitFlows } from '../src/renderer/src/features/flows/flow-limit'
import { collapseHubs } from '../src/renderer/src/features/flows/flow-hubs'
import { findPath } from '../src/renderer/src/features/flows/flow-path'
import { edgeData, graphStyle, LAYOUT, nodeData } from '../src/renderer/src/features/flows/graph-elements'

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '500' },
    edges: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '3' },
    cose: { type: 'boolean', default: false },
    'no-browser': { type: 'boolean', default: false },
    shot: { type: 'string' },
  },
})
const NODES = Number(values.nodes)
const EDGES = Number(values.edges)
const RUNS = Number(values.runs)

const addr = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`
const party = (hash: string) => ({ hash, name: null, ens_domain_name: null, is_contract: false, public_tags: [] })
/** A seeded generator, so every run measures the same graph. */
function rng(seed: number): () => number {
  let s = seed
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648
}

function transactions(): Transaction[] {
  const r = rng(7)
  const out: Transaction[] = []
  const pairs = new Set<string>()
  let n = 0
  // A tree first (every address within reach of the root), then random links up to EDGES.
  const link = (a: number, b: number): void => {
    const key = `${a}>${b}`
    if (a === b || pairs.has(key)) return
    pairs.add(key)
    const token = r() < 0.33
    for (let k = 0, times = 1 + Math.floor(r() * 4); k < times; k++) {
      n++
      out.push({
        hash: `0x${n.toString(16).padStart(64, '0')}`,
        from: party(addr(a)),
        to: party(addr(b)),
        value: token ? '0' : String(1 + Math.floor(r() * 1e9)) + '000000000',
        status: 'ok',
        result: 'success',
        timestamp: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
        tx_types: ['coin_transfer'],
        token_transfers: token
          ? [
              {
                from: party(addr(a)),
                to: party(addr(b)),
                token: { address: addr(1_000_000), symbol: 'USDC', name: 'USD Coin', decimals: '6', type: 'ERC-20' },
                total: { value: String(1 + Math.floor(r() * 1e9)), decimals: '6' },
                type: 'token_transfer',
              },
            ]
          : [],
      } as unknown as Transaction)
    }
  }
  for (let i = 1; i < NODES; i++) link(Math.floor(r() * i), i)
  while (pairs.size < EDGES) link(Math.floor(r() * NODES), Math.floor(r() * NODES))
  return out
}

const time = <T>(f: () => T): [T, number] => {
  const t0 = performance.now()
  const v = f()
  return [v, performance.now() - t0]
}
const ms = (x: number): string => x.toFixed(1)

const txs = transactions()
for (let run = 1; run <= RUNS; run++) {
  const [graph, buildMs] = time(() => buildFlowGraph(txs))
  const root = addr(0)
  const [view, filterMs] = time(() => {
    const limited = limitFlows(graph.edges, root, { hops: 6, direction: 'both', minAmount: '' })
    const c = collapseHubs(limited.edges, graph.nodes, new Set([root]), 1_000_000)
    const nodes = [...limited.distance].map(([a, hop]) =>
      nodeData(a, hop, graph.nodes.get(a) ?? null, { root: hop === 0, loaded: false, folded: 0 }),
    )
    return { nodes, edges: c.edges.map((e) => edgeData(e, new Set())), distance: limited.distance }
  })
  const elements = [
    ...view.nodes.map((data) => ({ group: 'nodes' as const, data })),
    ...view.edges.map((data) => ({ group: 'edges' as const, data })),
  ]
  const cy = cytoscape({ headless: true, elements, styleEnabled: false })
  const [, concentricMs] = time(() => cy.layout(LAYOUT as unknown as cytoscape.LayoutOptions).run())
  const [, coseMs] = values.cose
    ? time(() => cy.layout({ name: 'cose', animate: false, randomize: true, numIter: 1000 }).run())
    : [null, Number.NaN]
  const far = [...view.distance].sort((a, b) => b[1] - a[1])[0]![0]
  const [, pathMs] = time(() => findPath(graph.edges, root, far, { maxHops: 6, undirected: true }))
  const [, selectMs] = time(() => {
    const n = cy.getElementById(far)
    n.select()
    cy.center(n)
  })
  cy.destroy()
  console.log(
    `flows run=${run} nodes=${view.nodes.length} edges=${view.edges.length} build_ms=${ms(buildMs)} filter_ms=${ms(filterMs)} ` +
      `layout_concentric_ms=${ms(concentricMs)}${values.cose ? ` layout_cose_ms=${ms(coseMs)}` : ''} path_ms=${ms(pathMs)} select_ms=${ms(selectMs)}`,
  )
}

/** In the page: draw, then zoom and pan frame by frame (a string: the bench has no DOM types). */
const IN_PAGE = `async ({ elements, style, spacing, keep }) => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()))
  const host = document.getElementById('g')
  const t0 = performance.now()
  const cy = cytoscape({ container: host, elements, style, textureOnViewport: true, hideEdgesOnViewport: true })
  cy.layout({ name: 'concentric', concentric: (n) => 100 - n.data('hop'), levelWidth: () => 1, minNodeSpacing: spacing, animate: false }).run()
  cy.fit(undefined, 24)
  await frame(); await frame()
  const firstDraw = performance.now() - t0
  const steps = async (act) => {
    const out = []
    for (let i = 0; i < 20; i++) { const s = performance.now(); act(i); await frame(); out.push(performance.now() - s) }
    return out
  }
  const centre = { x: host.clientWidth / 2, y: host.clientHeight / 2 }
  const zoom = await steps((i) => cy.zoom({ level: cy.zoom() * (i < 10 ? 1.15 : 1 / 1.15), renderedPosition: centre }))
  const pan = await steps((i) => cy.panBy({ x: i < 10 ? 25 : -25, y: 10 }))
  const s = performance.now()
  cy.nodes().last().select()
  await frame()
  const select = performance.now() - s
  if (keep) { cy.fit(undefined, 24); await frame() } else cy.destroy()
  return { firstDraw, zoom, pan, select }
}`

if (!values['no-browser']) {
  const graph = buildFlowGraph(txs)
  const root = addr(0)
  const limited = limitFlows(graph.edges, root, { hops: 6, direction: 'both', minAmount: '' })
  const elements = [
    ...[...limited.distance].map(([a, hop]) => ({
      group: 'nodes',
      data: nodeData(a, hop, graph.nodes.get(a) ?? null, { root: hop === 0, loaded: false, folded: 0 }),
    })),
    ...limited.edges.map((e) => ({ group: 'edges', data: edgeData(e, new Set()) })),
  ]
  const style = graphStyle({
    text: '#1b1f24',
    surface: '#ffffff',
    border: '#57606a',
    accent: '#0b5cad',
    muted: '#57606a',
    warn: '#9a6700',
    out: '#b3361b',
  })
  const browser = await launchBenchBrowser()
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 800 } })
    await page.setContent('<div id="g" style="width:1000px;height:700px"></div>')
    await page.addScriptTag({ path: resolve(import.meta.dirname, '../node_modules/cytoscape/dist/cytoscape.min.js') })
    const stat = (xs: number[]): string => `${ms(xs.reduce((a, b) => a + b, 0) / xs.length)}`
    for (let run = 1; run <= RUNS; run++) {
      const r = (await page.evaluate(
        `(${IN_PAGE})(${JSON.stringify({ elements, style, spacing: LAYOUT.minNodeSpacing, keep: run === RUNS && !!values.shot })})`,
      )) as {
        firstDraw: number
        zoom: number[]
        pan: number[]
        select: number
      }
      console.log(
        `flows-browser run=${run} nodes=${limited.distance.size} edges=${limited.edges.length} first_draw_ms=${ms(r.firstDraw)} ` +
          `zoom_frame_ms_mean=${stat(r.zoom)} zoom_frame_ms_max=${ms(Math.max(...r.zoom))} ` +
          `pan_frame_ms_mean=${stat(r.pan)} pan_frame_ms_max=${ms(Math.max(...r.pan))} select_frame_ms=${ms(r.select)}`,
      )
    }
    if (values.shot) await page.locator('#g').screenshot({ path: values.shot })
  } finally {
    await browser.close()
  }
}

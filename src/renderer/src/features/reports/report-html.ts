import { nodeData } from '../flows'
import { esc } from './html-escape'
import { expandedPages, expandedSection, graphAsOf } from './report-expanded'
import {
  amountText,
  checksummed,
  nodeTitle,
  subjectFigures,
  type ReportInput,
  type ReportSubject,
} from './report-model'
import { asOf, day, minute, txTable, when } from './report-parts'
import { printCss, REPORT_CSS } from './report-style'
import { MANIFEST_META } from '@shared/domain/evidence'
import {
  addressCell,
  approvalsPart,
  holdingsPart,
  labelsSection,
  logSection,
  pathsSection,
  provenanceSection,
} from './report-case'
import { flowGraphSvg, historySvg } from './report-svg'

const addr = checksummed

function summary(input: ReportInput): string {
  const x = expandedPages(input.subjects).length
  const grew = x
    ? ` The flow graphs also draw on the ${x} address${x === 1 ? '' : 'es'} the graph expanded (under “Expanded addresses”).`
    : ''
  const rows = input.subjects
    .map(
      (s) =>
        `<tr>${addressCell(s.address, s.label)}<td>${esc(s.networkLabel)}</td>` +
        `<td class="num">${s.transactions.length}</td><td>${esc(when(s.transactionsFetchedAt))}</td></tr>`,
    )
    .join('')
  return (
    '<section aria-labelledby="summary"><h2 id="summary">Summary</h2>' +
    `<p>${input.subjects.length} address${input.subjects.length === 1 ? '' : 'es'}. Made ${esc(when(input.generatedAt))} from the data Chainscope had kept; nothing in this file loads anything.${esc(grew)}</p>` +
    '<table><caption class="muted">Addresses in this report</caption><thead><tr><th scope="col">Address and label</th><th scope="col">Network</th>' +
    '<th scope="col">Transactions loaded</th><th scope="col">Fetched</th></tr></thead>' +
    `<tbody>${rows}</tbody></table></section>`
  )
}

function subjectSection(s: ReportSubject, i: number): string {
  const f = subjectFigures(s)
  const title = s.label ? `${s.label} (${addr(s.address)})` : addr(s.address)
  const id = `a${i}`
  const nodes = [...f.distance.entries()].map(([address, hop]) => {
    // The canvas's own label rule (graph-elements.ts): a name cut to 24, else a short address.
    const n = nodeData(address, hop, f.graph.nodes.get(address) ?? null, {
      root: address === s.address,
      loaded: false,
      folded: f.hubs.get(address) ?? 0,
    })
    return { id: address, hop, root: n.kind === 'root', label: n.label }
  })
  const graph =
    f.edges.length === 0
      ? '<p class="muted">No value moved in the loaded transactions.</p>'
      : `<figure>${flowGraphSvg(nodes, f.edges, `Flow graph of ${title}, ${f.hops} hops`)}<figcaption>${f.edges.length} flows between ${nodes.length} addresses, rings by hop from the address.</figcaption></figure>`
  const flowRows = f.edges
    .map(
      (e) =>
        `<tr><td>${esc(nodeTitle(f.graph, e.from))}</td><td>${esc(nodeTitle(f.graph, e.to))}</td>` +
        `<td class="num">${esc(amountText(e.value, e.decimals, e.symbol))}</td><td class="num">${e.count}</td>` +
        `<td class="date">${esc(day(e.firstMs))}</td><td class="date">${esc(day(e.lastMs))}</td></tr>`,
    )
    .join('')
  const charts = f.histories
    .map(
      (h) =>
        `<figure>${historySvg(h.points, `${h.absolute ? 'Balance' : 'Net change'} of ${h.symbol} over time`, h.low, h.high)}` +
        `<figcaption>${esc(h.absolute ? `Balance of ${h.symbol}` : `Net change of ${h.symbol} since the oldest loaded transaction (its balance is missing: not loaded, so no balance is drawn)`)}, ${esc(minute(h.fromMs))} to ${esc(minute(h.toMs))}: lowest ${esc(h.low)}, highest ${esc(h.high)}.</figcaption></figure>`,
    )
    .join('')
  return (
    `<section aria-labelledby="${id}"><h2 id="${id}">${esc(title)} on ${esc(s.networkLabel)}</h2>` +
    `<p class="mono">${esc(addr(s.address))}</p>` +
    (s.note ? `<p class="notes">${esc(s.note)}</p>` : '') +
    holdingsPart(s) +
    approvalsPart(s) +
    (s.transactions.length === 0
      ? '<p class="muted">No transactions of this address were kept on this computer: open it in Chainscope first.</p>'
      : '') +
    `<h3>Flow graph</h3>${graphAsOf(s)}${graph}` +
    `<h3>Flows</h3>${graphAsOf(s)}` +
    (flowRows
      ? '<table><thead><tr><th scope="col">From</th><th scope="col">To</th><th scope="col">Amount</th><th scope="col">Movements</th><th scope="col">First</th><th scope="col">Last</th></tr></thead>' +
        `<tbody>${flowRows}</tbody></table>`
      : '<p class="muted">None.</p>') +
    `<h3>Balance over time</h3>${asOf(s.transactionsFetchedAt)}` +
    (s.balances ? `<p class="asof">Today's token balances as of ${esc(when(s.balances.fetchedAt))}.</p>` : '') +
    (charts || '<p class="muted">Too few changes to draw.</p>') +
    `<h3>Transactions</h3>${asOf(s.transactionsFetchedAt)}${txTable(s.transactions, s.address)}` +
    '</section>'
  )
}

/**
 * The report as one HTML file: no script, no link, no image source, no font to fetch, so it
 * opens anywhere with no network and shows the same. Built only from what the caller passes
 * (main's answers, already cleaned of the API key); every piece of data is escaped.
 */
export function buildReportHtml(input: ReportInput): string {
  const notes = input.notes.trim()
    ? `<section aria-labelledby="notes"><h2 id="notes">Notes</h2><p class="notes">${esc(input.notes)}</p></section>`
    : ''
  const c = input.caseFile
  const labelOf = (network: string, address: string): string | null =>
    c?.addresses.find((a) => a.network === network && a.address === address)?.label || null
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    (input.manifestHash ? `<meta name="${MANIFEST_META}" content="${esc(input.manifestHash)}">` : '') +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    // No network at all, even if a name slipped through as markup: the page may load nothing.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">` +
    `<title>${esc(input.title)}</title><style>${REPORT_CSS}${printCss(input.title, input.manifestHash ?? null)}</style></head><body><main>` +
    `<h1>${esc(input.title)}</h1><p class="muted">Chainscope report, made ${esc(when(input.generatedAt))}.</p>` +
    provenanceSection(input) +
    summary(input) +
    notes +
    (c ? labelsSection(c) + pathsSection(c, labelOf) : '') +
    input.subjects.map(subjectSection).join('') +
    expandedSection(input.subjects) +
    (c ? logSection(c) : '') +
    '</main></body></html>\n'
  )
}

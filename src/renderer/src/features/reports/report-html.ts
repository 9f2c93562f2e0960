import { parseAmount } from '@shared/domain/amount'
import type { Transaction } from '@shared/domain/service-schemas'
import { DIRECTION_LABEL, directionOf, methodLabel, partyView, statusLabel } from '../transactions'
import { nodeData } from '../flows'
import { esc } from './html-escape'
import {
  amountText,
  checksummed,
  nodeTitle,
  REPORT_HOPS,
  subjectFigures,
  type ReportInput,
  type ReportSubject,
} from './report-model'
import { REPORT_CSS } from './report-style'
import { flowGraphSvg, historySvg } from './report-svg'

/** Rows a transactions table lists per address: a report stays readable and printable. */
export const REPORT_TX_ROWS = 500

const when = (iso: string | null): string => (iso ? `${iso.slice(0, 19).replace('T', ' ')} UTC` : 'not loaded')
const minute = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`
/** The native value as the app shows it: exact, in whole coins; unreadable text shown as sent. */
const coin = (wei: string): string => {
  const v = parseAmount(wei)
  return v === null ? wei : amountText(v, 18, 'coin')
}
const day = (ms: number | null): string => (ms === null ? '—' : new Date(ms).toISOString().slice(0, 10))
const addr = checksummed
const asOf = (iso: string | null): string => `<p class="asof">Data as of ${esc(when(iso))}.</p>`

function summary(input: ReportInput): string {
  const rows = input.subjects
    .map(
      (s) =>
        `<tr><td class="mono">${esc(addr(s.address))}</td><td>${esc(s.networkLabel)}</td><td>${esc(s.label ?? '—')}</td>` +
        `<td class="num">${s.transactions.length}</td><td>${esc(when(s.transactionsFetchedAt))}</td></tr>`,
    )
    .join('')
  return (
    '<section aria-labelledby="summary"><h2 id="summary">Summary</h2>' +
    `<p>${input.subjects.length} address${input.subjects.length === 1 ? '' : 'es'}. Made ${esc(when(input.generatedAt))} from the data Chainscope had kept; nothing in this file loads anything.</p>` +
    '<table><caption class="muted">Addresses in this report</caption><thead><tr><th scope="col">Address</th><th scope="col">Network</th>' +
    '<th scope="col">Label</th><th scope="col">Transactions loaded</th><th scope="col">Fetched</th></tr></thead>' +
    `<tbody>${rows}</tbody></table></section>`
  )
}

function txRows(s: ReportSubject): string {
  return s.transactions
    .slice(0, REPORT_TX_ROWS)
    .map((tx: Transaction) => {
      const from = partyView(tx.from)
      const to = partyView(tx.to)
      return (
        `<tr><td class="mono">${esc(tx.hash)}</td><td>${esc(tx.timestamp ? when(tx.timestamp) : 'pending')}</td>` +
        `<td>${esc(DIRECTION_LABEL[directionOf(tx, s.address)])}</td><td>${esc(methodLabel(tx))}</td>` +
        `<td class="mono">${esc(from.name ?? from.address ?? '—')}</td><td class="mono">${esc(to.name ?? to.address ?? 'contract creation')}</td>` +
        `<td class="num">${esc(coin(tx.value))}</td><td>${esc(statusLabel(tx))}</td></tr>`
      )
    })
    .join('')
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
      : `<figure>${flowGraphSvg(nodes, f.edges, `Flow graph of ${title}, ${REPORT_HOPS} hops`)}<figcaption>${f.edges.length} flows between ${nodes.length} addresses, rings by hop from the address.</figcaption></figure>`
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
        `<figcaption>${esc(h.absolute ? `Balance of ${h.symbol}` : `Net change of ${h.symbol} since the oldest loaded transaction (today's balance not loaded)`)}, ${esc(minute(h.fromMs))} to ${esc(minute(h.toMs))}: lowest ${esc(h.low)}, highest ${esc(h.high)}.</figcaption></figure>`,
    )
    .join('')
  const more =
    s.transactions.length > REPORT_TX_ROWS
      ? `<p class="muted">The first ${REPORT_TX_ROWS} of ${s.transactions.length} loaded transactions are listed.</p>`
      : ''
  return (
    `<section aria-labelledby="${id}"><h2 id="${id}">${esc(title)} on ${esc(s.networkLabel)}</h2>` +
    `<p class="mono">${esc(addr(s.address))}</p>` +
    (s.note ? `<p class="notes">${esc(s.note)}</p>` : '') +
    (s.transactions.length === 0
      ? '<p class="muted">No transactions of this address were kept on this computer: open it in Chainscope first.</p>'
      : '') +
    `<h3>Flow graph</h3>${asOf(s.transactionsFetchedAt)}${graph}` +
    `<h3>Flows</h3>${asOf(s.transactionsFetchedAt)}` +
    (flowRows
      ? '<table><thead><tr><th scope="col">From</th><th scope="col">To</th><th scope="col">Amount</th><th scope="col">Movements</th><th scope="col">First</th><th scope="col">Last</th></tr></thead>' +
        `<tbody>${flowRows}</tbody></table>`
      : '<p class="muted">None.</p>') +
    `<h3>Balance over time</h3>${asOf(s.transactionsFetchedAt)}` +
    (s.balances ? `<p class="asof">Today's token balances as of ${esc(when(s.balances.fetchedAt))}.</p>` : '') +
    (charts || '<p class="muted">Too few changes to draw.</p>') +
    `<h3>Transactions</h3>${asOf(s.transactionsFetchedAt)}${more}` +
    (s.transactions.length
      ? '<table><thead><tr><th scope="col">Hash</th><th scope="col">Time</th><th scope="col">Direction</th><th scope="col">Method</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Value</th><th scope="col">Status</th></tr></thead>' +
        `<tbody>${txRows(s)}</tbody></table>`
      : '') +
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
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    // No network at all, even if a name slipped through as markup: the page may load nothing.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">` +
    `<title>${esc(input.title)}</title><style>${REPORT_CSS}</style></head><body><main>` +
    `<h1>${esc(input.title)}</h1><p class="muted">Chainscope report, made ${esc(when(input.generatedAt))}.</p>` +
    summary(input) +
    notes +
    input.subjects.map(subjectSection).join('') +
    '</main></body></html>\n'
  )
}

import { esc } from './html-escape'
import { checksummed, type ExpandedPage, type ReportSubject } from './report-model'
import { asOf, txTable, when } from './report-parts'

/**
 * When a graph figure's data was fetched: the address's own page, and the range over the
 * expanded addresses' pages it also draws from (each one's own time is on its table).
 */
export function graphAsOf(s: ReportSubject): string {
  const pages = (s.expanded ?? []).filter((p) => p.fetchedAt !== null)
  if (pages.length === 0) return asOf(s.transactionsFetchedAt)
  const times = pages.map((p) => p.fetchedAt!).sort()
  const range = times[0] === times.at(-1) ? when(times[0]!) : `${when(times[0]!)} to ${when(times.at(-1)!)}`
  return (
    `<p class="asof">Data as of ${esc(when(s.transactionsFetchedAt))} for this address; ` +
    `${pages.length} expanded address${pages.length === 1 ? '' : 'es'} as of ${esc(range)}.</p>`
  )
}

/** Every expanded address once, leaving out the report's own addresses (they have their section). */
export function expandedPages(subjects: readonly ReportSubject[]): ExpandedPage[] {
  const own = new Set(subjects.map((s) => `${s.network}|${s.address}`))
  const seen = new Map<string, ExpandedPage>()
  for (const s of subjects)
    for (const p of s.expanded ?? []) {
      const key = `${p.network}|${p.address}`
      if (!own.has(key) && !seen.has(key)) seen.set(key, p)
    }
  return [...seen.values()]
}

/**
 * The transactions of the addresses the flow graph expanded, each with when it was fetched:
 * the graph and flows above are drawn from them, so the report shows what they hold.
 */
export function expandedSection(subjects: readonly ReportSubject[]): string {
  const pages = expandedPages(subjects)
  if (pages.length === 0) return ''
  const parts = pages.map((p, i) => {
    const title = `${checksummed(p.address)} on ${p.networkLabel}`
    const body =
      p.fetchedAt === null
        ? '<p class="muted">Not kept on this computer: expand it again in Chainscope to include it.</p>'
        : asOf(p.fetchedAt) + (txTable(p.transactions, p.address) || '<p class="muted">No transactions.</p>')
    return `<h3 id="x${i}" class="mono">${esc(title)}</h3>${body}`
  })
  return (
    '<section aria-labelledby="expanded"><h2 id="expanded">Expanded addresses</h2>' +
    `<p>${pages.length} address${pages.length === 1 ? '' : 'es'} the flow graph expanded; the graphs and flows above include their transactions.</p>` +
    parts.join('') +
    '</section>'
  )
}

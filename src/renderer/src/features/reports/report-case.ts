import { formatUnits, parseAmount } from '@shared/domain/amount'
import type { CaseFile } from '@shared/domain/case-file'
import { logHead, verifyLog } from '@shared/domain/case-log'
import { esc } from './html-escape'
import { assetsFromBalances } from '../analysis'
import { amountText, checksummed, type ReportInput, type ReportSubject } from './report-model'
import { day, when } from './report-parts'

/**
 * The parts of a report that make it an exhibit (issue 41): who made it with what from where,
 * the holdings and approvals as fetched, the path questions, the case's labels and notes and
 * its activity log. Every piece of data is escaped; nothing here loads anything.
 */

const head = (cols: readonly string[]): string =>
  `<thead><tr>${cols.map((c) => `<th scope="col">${esc(c)}</th>`).join('')}</tr></thead>`
const table = (caption: string, cols: readonly string[], rows: readonly string[]): string =>
  `<table><caption class="muted">${esc(caption)}</caption>${head(cols)}<tbody>${rows.join('')}</tbody></table>`
const td = (text: string, cls = ''): string => `<td${cls ? ` class="${cls}"` : ''}>${esc(text)}</td>`

/** An address as an exhibit shows it: in full, checksummed, with its label beside it. */
export function addressCell(address: string, label: string | null): string {
  return `<td><span class="mono">${esc(checksummed(address))}</span>${label ? ` <span class="label">${esc(label)}</span>` : ''}</td>`
}

export function provenanceSection(input: ReportInput): string {
  const p = input.provenance
  const rows: [string, string][] = [
    ['Made at', `${when(input.generatedAt)} (shown in UTC; the maker's time zone: ${p?.timeZone ?? 'not recorded'})`],
    ['Made by', p?.by || 'not given'],
    ['Made with', p ? `${p.app.name} ${p.app.version}` : 'Chainscope'],
    ['Data source', p ? `profile “${p.profile}”, service at ${p.host}` : 'not recorded'],
    [
      'Networks',
      p
        ? p.networks.map((n) => `${n.label} (${n.name}, chain id ${n.chainId ?? 'not recorded'})`).join('; ')
        : 'not recorded',
    ],
  ]
  if (input.caseFile) rows.push(['Activity log head (SHA-256)', logHead(input.caseFile.log)])
  if (input.manifestHash) rows.push(['Manifest hash (SHA-256)', input.manifestHash])
  return (
    '<section aria-labelledby="provenance"><h2 id="provenance">Provenance</h2>' +
    `<table class="kv"><tbody>${rows.map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td class="mono-ok">${esc(v)}</td></tr>`).join('')}</tbody></table>` +
    '<p class="muted">Every figure below says when its data was fetched. No API key is in this file; it loads nothing.</p></section>'
  )
}

/** Current balances as fetched: the coin's, then each token's; a balance not loaded is said so. */
export function holdingsPart(s: ReportSubject): string {
  const coin = s.coin
    ? `<p>Coin balance: <strong class="num">${esc(amountText(parseAmount(s.coin.wei) ?? 0n, 18, 'coin'))}</strong> <span class="asof">as of ${esc(when(s.coin.fetchedAt))}.</span></p>`
    : '<p class="missing">Coin balance: missing (not loaded on this computer).</p>'
  const tokens = s.balances
    ? s.balances.items.length === 0
      ? `<p class="muted">No token balances, as of ${esc(when(s.balances.fetchedAt))}.</p>`
      : `<p class="asof">Token balances as of ${esc(when(s.balances.fetchedAt))}.</p>` +
        table(
          'Token balances',
          ['Token', 'Contract', 'Balance'],
          assetsFromBalances(s.balances.items).map(
            (a) =>
              `<tr>${td(a.symbol)}${td(checksummed(a.key), 'mono')}${td(amountText(a.value, a.decimals, a.symbol), 'num')}</tr>`,
          ),
        )
    : '<p class="missing">Token balances: missing (not loaded on this computer).</p>'
  return `<h3>Current balances</h3>${coin}${tokens}`
}

export function approvalsPart(s: ReportSubject): string {
  const rows = (s.approvals?.rows ?? []).filter((r) => r.status === 'live')
  if (!s.approvals)
    return '<h3>Approvals at risk</h3><p class="missing">Approvals: missing (not checked on this computer).</p>'
  if (rows.length === 0) return '<h3>Approvals at risk</h3><p>None live in what was checked.</p>'
  return (
    '<h3>Approvals at risk</h3>' +
    table(
      'Live approvals',
      ['Token', 'Spender', 'Allowance', 'At risk now', 'Granted'],
      rows.map(
        (r) =>
          '<tr>' +
          addressCell(r.token.address, r.token.symbol ?? r.token.name) +
          addressCell(r.spender.address, r.spender.watchlistLabel ?? r.spender.name) +
          td(r.unlimited ? 'unlimited' : (r.allowance ?? 'unknown'), 'num') +
          td(r.atRisk ?? 'unknown', 'num') +
          td(r.granted?.timestamp ? when(r.granted.timestamp) : (r.granted?.tx ?? 'unknown'), 'mono') +
          '</tr>',
      ),
    )
  )
}

export function pathsSection(c: CaseFile, label: (network: string, address: string) => string | null): string {
  if (c.paths.length === 0) return ''
  const items = c.paths.map((p, i) => {
    const q = `From ${checksummed(p.from)} to ${checksummed(p.to)} on ${p.network} within ${p.maxHops} hops${p.undirected ? ' (either direction)' : ''}, asked ${when(p.askedAt)}`
    if (p.answer === null) return `<h3 id="p${i}">${esc(q)}</h3><p>No path found in what was loaded.</p>`
    const hops = p.answer.map(
      (h, j) =>
        `<tr><td class="num">${j + 1}</td>${addressCell(h.from, label(p.network, h.from))}${addressCell(h.to, label(p.network, h.to))}` +
        td(`${formatUnits(BigInt(h.value), h.decimals ?? 0)} ${h.symbol}`, 'num') +
        td(`${day(h.firstMs)} to ${day(h.lastMs)}`, 'date') +
        td(h.hashes.join(' ') || 'none kept', 'mono') +
        '</tr>',
    )
    return (
      `<h3 id="p${i}">${esc(q)}</h3><p>Path found: ${p.answer.length} hop${p.answer.length === 1 ? '' : 's'}.</p>` +
      table('Hops of the path', ['Hop', 'From', 'To', 'Amount', 'Dates', 'Transactions'], hops)
    )
  })
  return `<section aria-labelledby="paths"><h2 id="paths">Paths found</h2>${items.join('')}</section>`
}

export function labelsSection(c: CaseFile): string {
  if (c.addresses.length === 0) return ''
  return (
    '<section aria-labelledby="labels"><h2 id="labels">Labels and notes</h2>' +
    table(
      'Every address of the case, with its label and note',
      ['Address and label', 'Network', 'Note', 'Added'],
      c.addresses.map(
        (a) =>
          `<tr>${addressCell(a.address, a.label || null)}${td(a.network)}${td(a.note || '—')}${td(when(a.addedAt))}</tr>`,
      ),
    ) +
    '</section>'
  )
}

export function logSection(c: CaseFile): string {
  const problem = verifyLog(c.log)
  const status = problem
    ? `<p class="missing">The activity log does not verify: ${esc(problem.message)}</p>`
    : `<p>${c.log.length} entries; each is chained to the one before by SHA-256, and the chain verifies. Head: <span class="mono">${esc(logHead(c.log))}</span>.</p>`
  return (
    '<section aria-labelledby="log"><h2 id="log">Activity log</h2>' +
    status +
    (c.log.length
      ? table(
          'Activity log, oldest first',
          ['#', 'When', 'Kind', 'What', 'Profile', 'Cost', 'SHA-256'],
          c.log.map(
            (e) =>
              `<tr>${td(String(e.seq), 'num')}${td(when(e.at), 'date')}${td(e.kind)}${td(e.what)}${td(e.profile ?? '—')}${td(e.cost ?? '—')}${td(e.hash, 'mono')}</tr>`,
          ),
        )
      : '') +
    '</section>'
  )
}

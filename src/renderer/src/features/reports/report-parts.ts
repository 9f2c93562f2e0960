import { parseAmount } from '@shared/domain/amount'
import type { Transaction } from '@shared/domain/service-schemas'
import { movementsOf } from '@shared/domain/movements'
import { checksummed } from './report-model'
import { DIRECTION_LABEL, directionOf, methodLabel, partyView, statusLabel } from '../transactions'
import { esc } from './html-escape'
import { amountText } from './report-model'

/** Rows a transactions table lists per address: a report stays readable and printable. */
const REPORT_TX_ROWS = 500

export const when = (iso: string | null): string => (iso ? `${iso.slice(0, 19).replace('T', ' ')} UTC` : 'not loaded')
export const minute = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`
export const day = (ms: number | null): string => (ms === null ? '—' : new Date(ms).toISOString().slice(0, 10))
export const asOf = (iso: string | null): string => `<p class="asof">Data as of ${esc(when(iso))}.</p>`

/** The native value as the app shows it: exact, in whole coins; unreadable text shown as sent. */
const coin = (wei: string): string => {
  const v = parseAmount(wei)
  return v === null ? wei : amountText(v, 18, 'coin')
}

/**
 * What a transaction moved: its coin value, and each token transfer in the token's own amount
 * (a token transfer carries no coin: "0 coin" alone would hide it).
 */
function moved(tx: Transaction): string {
  const m = movementsOf(tx).movements
  const tokens = m.filter((x) => x.kind === 'transfer').map((x) => amountText(x.value, x.decimals, x.symbol))
  const native = coin(tx.value)
  return tokens.length === 0
    ? native
    : parseAmount(tx.value) === 0n
      ? tokens.join('; ')
      : [native, ...tokens].join('; ')
}

/** A party in full (checksummed) with its name beside it, never instead of it. */
function partyCell(p: { address: string | null; name: string | null }, none: string): string {
  if (!p.address) return `<td>${esc(p.name ?? none)}</td>`
  return `<td><span class="mono">${esc(checksummed(p.address))}</span>${p.name ? ` <span class="label">${esc(p.name)}</span>` : ''}</td>`
}

/** A transactions table seen from `address` (its direction column), the first rows only. */
export function txTable(transactions: readonly Transaction[], address: string): string {
  if (transactions.length === 0) return ''
  const more =
    transactions.length > REPORT_TX_ROWS
      ? `<p class="muted">The first ${REPORT_TX_ROWS} of ${transactions.length} loaded transactions are listed.</p>`
      : ''
  const rows = transactions
    .slice(0, REPORT_TX_ROWS)
    .map((tx: Transaction) => {
      const from = partyView(tx.from)
      const to = partyView(tx.to)
      return (
        `<tr><td class="mono">${esc(tx.hash)}</td><td>${esc(tx.timestamp ? when(tx.timestamp) : 'pending')}</td>` +
        `<td>${esc(DIRECTION_LABEL[directionOf(tx, address)])}</td><td>${esc(methodLabel(tx))}</td>` +
        partyCell(from, '—') +
        partyCell(to, 'contract creation') +
        `<td class="num">${esc(moved(tx))}</td><td>${esc(statusLabel(tx))}</td></tr>`
      )
    })
    .join('')
  return (
    more +
    '<table><thead><tr><th scope="col">Hash</th><th scope="col">Time</th><th scope="col">Direction</th><th scope="col">Method</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Value</th><th scope="col">Status</th></tr></thead>' +
    `<tbody>${rows}</tbody></table>`
  )
}

import { parseAmount } from '@shared/domain/amount'
import type { Transaction } from '@shared/domain/service-schemas'
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
        `<td class="mono">${esc(from.name ?? from.address ?? '—')}</td><td class="mono">${esc(to.name ?? to.address ?? 'contract creation')}</td>` +
        `<td class="num">${esc(coin(tx.value))}</td><td>${esc(statusLabel(tx))}</td></tr>`
      )
    })
    .join('')
  return (
    more +
    '<table><thead><tr><th scope="col">Hash</th><th scope="col">Time</th><th scope="col">Direction</th><th scope="col">Method</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Value</th><th scope="col">Status</th></tr></thead>' +
    `<tbody>${rows}</tbody></table>`
  )
}

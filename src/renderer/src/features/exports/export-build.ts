import type { BalancesView } from '@shared/bridge/contract'
import type { Transaction } from '@shared/domain/service-schemas'
import { formatFiat, formatTokenAmount } from '@shared/domain/amount'
import { toBalanceRow } from '../balances'
import { csvLine } from '@shared/csv'
import { directionOf, UnreadableRow, revertReasonView } from '../transactions'

export type ExportFormat = 'csv' | 'json'
export type Progress = (done: number, total: number) => void

/** Yields to the browser between chunks so a long export keeps the page responsive. */
const yieldToBrowser = (): Promise<void> => new Promise((r) => setTimeout(r, 0))

export interface ExportOptions {
  /** Rows per chunk between progress reports. Default 500. */
  chunk?: number
  onProgress?: Progress
  signal?: AbortSignal
}

export class ExportCancelled extends Error {
  override readonly name = 'ExportCancelled'
  readonly kind = 'cancelled'
}

async function mapChunked<T>(
  rows: readonly T[],
  render: (row: T) => string,
  options: ExportOptions,
): Promise<string[]> {
  const chunk = options.chunk ?? 500
  const out: string[] = []
  for (let i = 0; i < rows.length; i += chunk) {
    if (options.signal?.aborted) throw new ExportCancelled('Export cancelled.')
    for (const row of rows.slice(i, i + chunk)) out.push(render(row))
    options.onProgress?.(Math.min(i + chunk, rows.length), rows.length)
    if (i + chunk < rows.length) await yieldToBrowser()
  }
  options.onProgress?.(rows.length, rows.length)
  return out
}

const BALANCE_COLUMNS = [
  'token_address',
  'name',
  'symbol',
  'type',
  'decimals',
  'value_raw',
  'amount',
  'exchange_rate',
  'fiat_value',
  'token_id',
  'unreadable_raw',
]

export async function balancesExport(
  view: BalancesView,
  format: ExportFormat,
  options: ExportOptions = {},
): Promise<string> {
  const items = view.items
  const unreadable = view.unreadable.map((u) => ({ unreadable: true, path: u.path, message: u.message, raw: u.raw }))
  if (format === 'json') {
    await mapChunked(items, () => '', options)
    // The wire items as received: exact decimal strings, nothing rounded.
    return JSON.stringify(
      {
        network: view.network,
        address: view.address,
        fetchedAt: view.fetchedAt,
        source: view.source,
        items,
        unreadable,
      },
      null,
      2,
    )
  }
  const lines = await mapChunked(
    items,
    (item) => {
      const r = toBalanceRow(item, 0)
      return csvLine([
        r.tokenAddress,
        r.name,
        r.symbol,
        r.type,
        item.token.decimals ?? '',
        item.value,
        r.amount.known ? r.amount.exact.replace(/,/g, '') : '',
        r.rate ?? '',
        r.fiatCents === null ? '' : formatFiat(r.fiatCents).replace(/,/g, ''),
        r.tokenId ?? '',
        '',
      ])
    },
    options,
  )
  const raw = view.unreadable.map((u) =>
    csvLine([...Array<string>(BALANCE_COLUMNS.length - 1).fill(''), JSON.stringify(u.raw)]),
  )
  return [csvLine(BALANCE_COLUMNS), ...lines, ...raw].join('\r\n') + '\r\n'
}

const TX_COLUMNS = [
  'hash',
  'timestamp',
  'block',
  'position',
  'direction',
  'status',
  'result',
  'method',
  'tx_types',
  'from',
  'from_name',
  // The user's name for the party (watchlist label, then address label): docs/decisions/labels-one-layer.md.
  'from_label',
  'to',
  'to_name',
  'to_label',
  'value_wei',
  'value',
  'fee_wei',
  'fee',
  'gas_used',
  'gas_limit',
  'gas_price',
  'nonce',
  'type',
  'confirmations',
  'revert_reason',
  'created_contract',
  'token_transfers',
  // Items the service sent that could not be read: their JSON as received, never dropped.
  'unreadable_raw',
]

const exactCoin = (wei: unknown): string => {
  const a = formatTokenAmount(wei, '18', { group: false })
  return a.known ? a.exact.replace(/,/g, '') : ''
}

export async function transactionsExport(
  meta: {
    network: string
    address: string
    fetchedAt: string | null
    /** The user's names on this network, by lowercase address (watchLabelsOn). */
    labels?: ReadonlyMap<string, string>
  },
  items: readonly (Transaction | UnreadableRow)[],
  format: ExportFormat,
  options: ExportOptions = {},
): Promise<string> {
  const labelOf = (a: string | null | undefined): string => (a ? (meta.labels?.get(a.toLowerCase()) ?? '') : '')
  if (format === 'json') {
    const named = new Map<string, string>()
    for (const tx of items)
      if (!(tx instanceof UnreadableRow))
        for (const a of [tx.from.hash, tx.to?.hash]) if (labelOf(a)) named.set(a!.toLowerCase(), labelOf(a))
    const parts = await mapChunked(
      items,
      (tx) =>
        tx instanceof UnreadableRow
          ? JSON.stringify({ unreadable: true, path: tx.item.path, message: tx.item.message, raw: tx.item.raw })
          : JSON.stringify(tx),
      options,
    )
    return `{"network":${JSON.stringify(meta.network)},"address":${JSON.stringify(meta.address)},"fetchedAt":${JSON.stringify(meta.fetchedAt)},"labels":${JSON.stringify(Object.fromEntries(named))},"count":${items.length},"items":[\n${parts.join(',\n')}\n]}\n`
  }
  const lines = await mapChunked(
    items,
    (tx) =>
      tx instanceof UnreadableRow
        ? csvLine([tx.item.hash ?? '', ...Array<string>(TX_COLUMNS.length - 2).fill(''), JSON.stringify(tx.item.raw)])
        : csvLine([
            tx.hash,
            tx.timestamp,
            tx.block,
            tx.position,
            directionOf(tx, meta.address),
            tx.status,
            tx.result,
            tx.method ?? '',
            tx.tx_types.join(' '),
            tx.from.hash,
            tx.from.name ?? '',
            labelOf(tx.from.hash),
            tx.to?.hash ?? '',
            tx.to?.name ?? '',
            labelOf(tx.to?.hash),
            tx.value,
            exactCoin(tx.value),
            tx.fee.value ?? '',
            exactCoin(tx.fee.value),
            tx.gas_used,
            tx.gas_limit,
            tx.gas_price,
            tx.nonce,
            tx.type,
            tx.confirmations,
            revertReasonView(tx.revert_reason)?.text ?? '',
            tx.created_contract?.hash ?? '',
            tx.token_transfers ? tx.token_transfers.length : '',
            '',
          ]),
    options,
  )
  return [csvLine(TX_COLUMNS), ...lines].join('\r\n') + '\r\n'
}

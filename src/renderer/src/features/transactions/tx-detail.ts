import type { Transaction } from '@shared/domain/service-schemas'
import { fiatValue, formatFiat, formatTokenAmount, formatUnits, parseAmount, parseDecimals } from '@shared/domain/amount'
import { partyView } from './tx-view'

/** Exact native-coin reading of a wei amount: "0.000021 (21000000000000 wei)". */
export function coin(wei: unknown): { text: string; wei: string } {
  const a = formatTokenAmount(wei, '18')
  return { text: a.known ? a.text : 'unknown', wei: typeof wei === 'string' ? wei : 'unknown' }
}

export function gwei(wei: unknown): string {
  const v = parseAmount(wei)
  return v === null ? 'unknown' : `${formatUnits(v, 9)} gwei`
}

/** Gas used as a share of the limit, e.g. "21,000 of 21,000 (100 %)". */
export function gasUsage(used: unknown, limit: unknown): string {
  const u = parseAmount(used)
  const l = parseAmount(limit)
  if (u === null || l === null) return 'unknown'
  const pct = l === 0n ? '—' : `${((Number((u * 10000n) / l)) / 100).toFixed(2)} %`
  return `${formatUnits(u, 0)} of ${formatUnits(l, 0)} (${pct})`
}

export function fiatAtTime(wei: unknown, rate: unknown): string | null {
  const cents = fiatValue(wei, '18', rate)
  return cents === null ? null : `$${formatFiat(cents)}`
}

/** "between 0.12 s and 2.3 s"; the spec gives a range in milliseconds. */
export function confirmationRange(range: unknown): string {
  if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => typeof n === 'number' && Number.isFinite(n))) return 'unknown'
  const [a, b] = range as [number, number]
  const s = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`)
  return a === b ? s(a) : `between ${s(a)} and ${s(b)}`
}

export interface TransferView {
  from: ReturnType<typeof partyView>
  to: ReturnType<typeof partyView>
  token: string
  tokenAddress: string | null
  amount: string
  type: string
  tokenId: string | null
}

const rec = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null)
const s = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

/**
 * Token transfers, read defensively: their structure is not in the spec. Known shapes
 * (from/to address objects, token object, total {value, decimals} or value) are shown as
 * rows; anything else falls back to the raw JSON view.
 */
export function transferViews(tx: Transaction): TransferView[] | null {
  if (!Array.isArray(tx.token_transfers)) return null
  const out: TransferView[] = []
  for (const t of tx.token_transfers) {
    const r = rec(t)
    if (!r) return null
    const token = rec(r.token)
    const total = rec(r.total)
    const decimals = total?.decimals ?? token?.decimals ?? null
    const rawValue = total?.value ?? r.value ?? null
    const tokenId = s(total?.token_id) ?? s(r.token_id)
    const amount = rawValue === null ? (tokenId ? '1' : 'unknown') : formatTokenAmount(rawValue, parseDecimals(decimals) === null ? null : decimals).text
    out.push({
      from: partyView(r.from as never),
      to: partyView(r.to as never),
      token: s(token?.symbol) ?? s(token?.name) ?? 'token',
      tokenAddress: s(token?.address) ?? s(token?.address_hash),
      amount,
      type: s(r.type) ?? s(token?.type) ?? '',
      tokenId,
    })
  }
  return out
}

export interface DecodedParam {
  name: string
  type: string
  value: string
}

/** Decoded input as "method(args)" and a parameter table, when it has the usual shape. */
export function decodedInputView(decoded: unknown): { call: string | null; params: DecodedParam[] } | null {
  const d = rec(decoded)
  if (!d) return null
  const call = s(d.method_call) ?? s(d.method) ?? s(d.name)
  const list = Array.isArray(d.parameters) ? d.parameters : Array.isArray(d.params) ? d.params : null
  if (!list) return call ? { call, params: [] } : null
  const params: DecodedParam[] = []
  for (const p of list) {
    const r = rec(p)
    if (!r) return null
    const value = r.value
    params.push({ name: s(r.name) ?? '', type: s(r.type) ?? '', value: typeof value === 'string' ? value : JSON.stringify(value) ?? 'null' })
  }
  return { call, params }
}

/** Raw input size in bytes, e.g. "0x a9059cbb…" is 68 bytes for an ERC-20 transfer. */
export function inputBytes(raw: unknown): number {
  return typeof raw === 'string' && raw.startsWith('0x') ? Math.floor((raw.length - 2) / 2) : 0
}

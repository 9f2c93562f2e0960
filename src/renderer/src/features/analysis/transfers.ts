import type { Transaction } from '@shared/domain/service-schemas'
import { parseAmount, parseDecimals } from '@shared/domain/amount'

/**
 * The one place the analysis views read `token_transfers`. The schema types it loosely today
 * (`unknown[] | null`; its shape is not in the spec), so this adapter reads the shape the
 * service and Blockscout send — `{ from, to, token: { address, symbol, decimals, type },
 * total: { value, decimals } | { token_id } }` — and skips what it cannot read. When the
 * schema gains a typed transfer (issue 9) only this file changes.
 */
export interface TransferFlow {
  /** Lowercase addresses; null when missing. */
  from: string | null
  to: string | null
  /** Lowercase token contract address, or `?<symbol>` when the item has none. */
  token: string
  symbol: string
  /** Null for NFTs and unknown decimals: amounts are then whole units. */
  decimals: number | null
  type: string
  /** Smallest units; an ERC-721 transfer moves 1. */
  value: bigint
  tokenId: string | null
  /** Names the item gives its parties (service name, ENS, tags). */
  fromLabel: string | null
  toLabel: string | null
}

export interface TransfersOf {
  flows: TransferFlow[]
  /** Items that could not be read (shown as a count, never guessed). */
  unreadable: number
  /** The item lists only the first transfers (`token_transfers_overflow`). */
  overflow: boolean
}

const rec = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null)
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null)

export function partyHash(party: unknown): string | null {
  const raw = typeof party === 'string' ? party : str(rec(party)?.hash)
  return raw && /^0x[0-9a-fA-F]{40}$/.test(raw) ? raw.toLowerCase() : null
}

/** The best name an address object carries: service name, then ENS, then its first tag. */
export function partyLabel(party: unknown): string | null {
  const p = rec(party)
  if (!p) return null
  const name = str(p.name) ?? str(p.ens_domain_name)
  if (name) return name
  for (const field of ['public_tags', 'private_tags']) {
    const tags = p[field]
    if (Array.isArray(tags)) for (const t of tags) if (str(rec(t)?.label)) return str(rec(t)?.label)
  }
  return null
}

const EMPTY: TransfersOf = { flows: [], unreadable: 0, overflow: false }

export function transfersOf(tx: Transaction): TransfersOf {
  const list: unknown = tx?.token_transfers
  if (!Array.isArray(list) || list.length === 0) return EMPTY
  const flows: TransferFlow[] = []
  let unreadable = 0
  for (const item of list) {
    const r = rec(item)
    const token = rec(r?.token)
    const total = rec(r?.total)
    if (!r || !token) {
      unreadable++
      continue
    }
    const type = str(token.type) ?? str(r.type) ?? ''
    const tokenId = str(total?.token_id) ?? str(r.token_id)
    const rawValue = total?.value ?? r.value
    const value = rawValue === undefined || rawValue === null ? (tokenId !== null ? 1n : null) : parseAmount(rawValue)
    if (value === null) {
      unreadable++
      continue
    }
    const address = str(token.address) ?? str(token.address_hash)
    const symbol = str(token.symbol) ?? str(token.name) ?? 'token'
    flows.push({
      from: partyHash(r.from),
      to: partyHash(r.to),
      token: address && /^0x[0-9a-fA-F]{40}$/.test(address) ? address.toLowerCase() : `?${symbol}`,
      symbol,
      decimals: parseDecimals(total?.decimals ?? token.decimals ?? null),
      type,
      value,
      tokenId,
      fromLabel: partyLabel(r.from),
      toLabel: partyLabel(r.to),
    })
  }
  return { flows, unreadable, overflow: tx.token_transfers_overflow === true }
}

import { shortHash } from '@shared/domain/short-hash'
import type { Note, Watchlist } from '@shared/bridge/contract'
import type { AddressLabel } from '@shared/domain/address-label'
import type { BalanceItem, Transaction } from '@shared/domain/service-schemas'
import type { SearchDoc } from './cached-search'
import { isRecord } from '@shared/guards'

/**
 * What the cached search finds an item by; read loosely, as cached items may be odd. The
 * index saved between runs holds these items as made here: a change to what they hold must
 * raise SEARCH_WORDS_VERSION (search-index-file.ts), or a saved index keeps the old words.
 */

const lower = (v: unknown): string | null =>
  typeof v === 'string' && /^0x[0-9a-fA-F]+$/.test(v) ? v.toLowerCase() : null
const hashOf = (party: unknown): string | null =>
  party && typeof party === 'object' && 'hash' in party ? lower(party.hash) : lower(party)
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null)
const short = (h: string): string => shortHash(h, 10, 6)

function partyLabels(party: unknown): string[] {
  if (!party || typeof party !== 'object') return []
  const out: string[] = []
  if ('name' in party && str(party.name)) out.push(str(party.name)!)
  if ('ens_domain_name' in party && str(party.ens_domain_name)) out.push(str(party.ens_domain_name)!)
  for (const field of ['public_tags', 'private_tags'] as const) {
    const tags = isRecord(party) ? party[field] : null
    if (Array.isArray(tags))
      for (const t of tags) if (t && typeof t === 'object' && 'label' in t && str(t.label)) out.push(str(t.label)!)
  }
  return out
}

/** A cached transaction of `owner`'s page: hash, parties, method, token symbols, labels. */
export function transactionDoc(network: string, owner: string, tx: Transaction): SearchDoc | null {
  const hash = lower(tx?.hash)
  if (!hash) return null
  const hex = [hash]
  const text: string[] = []
  for (const p of [tx.from, tx.to]) {
    const h = hashOf(p)
    if (h) hex.push(h)
    text.push(...partyLabels(p))
  }
  const method = str(tx.method)
  if (method) text.push(method)
  const symbols = new Set<string>()
  if (Array.isArray(tx.token_transfers)) {
    for (const t of tx.token_transfers) {
      if (!t || typeof t !== 'object') continue
      const token = 'token' in t && t.token && typeof t.token === 'object' ? t.token : null
      if (token && 'symbol' in token && str(token.symbol)) symbols.add(str(token.symbol)!)
      if (token && 'name' in token && str(token.name)) text.push(str(token.name)!)
      for (const side of ['from', 'to'] as const) {
        const h = isRecord(t) ? hashOf(t[side]) : null
        if (h && !hex.includes(h)) hex.push(h)
      }
    }
  }
  text.push(...symbols)
  const when = typeof tx.timestamp === 'string' ? tx.timestamp.slice(0, 10) : ''
  return {
    id: `tx|${network}|${hash}`,
    kind: 'transaction',
    network,
    address: owner,
    hash,
    title: `Transaction ${short(hash)}`,
    detail: [method ?? 'transfer', [...symbols].join(', '), when].filter(Boolean).join(' · '),
    hex,
    text,
  }
}

/** An address with cached balances: found by its address and the symbols and names it holds. */
export function balancesDoc(network: string, address: string, items: BalanceItem[], fetchedAt: number): SearchDoc {
  const symbols: string[] = []
  const text: string[] = []
  for (const item of Array.isArray(items) ? items : []) {
    const s = str(item?.token?.symbol)
    if (s && !symbols.includes(s)) symbols.push(s)
    const n = str(item?.token?.name)
    if (n) text.push(n)
  }
  return {
    id: `bal|${network}|${address}`,
    kind: 'address',
    network,
    address,
    hash: null,
    title: `Address ${short(address)}`,
    detail: `Balances cached ${new Date(fetchedAt).toISOString().slice(0, 16).replace('T', ' ')}: ${symbols.slice(0, 6).join(', ') || 'no tokens'}${symbols.length > 6 ? ', …' : ''}`,
    hex: [address],
    text: [...symbols, ...text],
  }
}

export function watchlistDocs(lists: readonly Watchlist[]): SearchDoc[] {
  const out: SearchDoc[] = []
  for (const list of lists) {
    for (const e of list.entries) {
      out.push({
        id: `w|${e.id}`,
        kind: 'watch-entry',
        network: e.network,
        address: e.address,
        hash: null,
        title: e.label ? `${e.label} (${short(e.address)})` : `Watched ${short(e.address)}`,
        detail: `In “${list.name}”${e.note ? ` · ${e.note.slice(0, 80)}` : ''}${e.tags.length ? ` · ${e.tags.join(', ')}` : ''}`,
        hex: [e.address],
        text: [e.label, e.note, ...e.tags, list.name].filter(Boolean),
      })
    }
  }
  return out
}

export function noteDocs(notes: readonly Note[]): SearchDoc[] {
  return notes.map((n) => ({
    id: `n|${n.kind}|${n.network}|${n.key}`,
    kind: 'note',
    network: n.network,
    address: n.kind === 'address' ? n.key : null,
    hash: n.kind === 'tx' ? n.key : null,
    title: `Note on ${n.kind === 'tx' ? 'transaction' : 'address'} ${short(n.key)}`,
    detail: n.text.slice(0, 120),
    hex: [n.key],
    text: [n.text],
  }))
}

/** The user's address labels: found by the label, its note and the address. */
export function labelDocs(labels: readonly AddressLabel[]): SearchDoc[] {
  return labels.map((l) => ({
    id: `l|${l.network}|${l.address}`,
    kind: 'label',
    network: l.network,
    address: l.address,
    hash: null,
    title: l.label ? `${l.label} (${short(l.address)})` : `Labelled ${short(l.address)}`,
    detail: `Your label${l.note ? ` · ${l.note.slice(0, 80)}` : ''}`,
    hex: [l.address],
    text: [l.label, l.note].filter(Boolean),
  }))
}

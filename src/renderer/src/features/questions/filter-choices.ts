import { sameAddress } from '@shared/domain/address'
import type { Transaction } from '@shared/domain/service-schemas'
import { keysOf } from './address-filters'

export interface TokenChoice {
  /** Lowercase contract address. */
  key: string
  symbol: string
  /** Transactions of the address that move it. */
  count: number
}

export interface FilterChoices {
  tokens: TokenChoice[]
  /** Counterparties, most frequent first, at most `maxParties`. */
  parties: string[]
}

interface Tally {
  me: string
  first: Transaction | undefined
  seen: number
  tokens: Map<string, TokenChoice>
  parties: Map<string, number>
}
let last: Tally | null = null

/**
 * What the filter pickers offer: the tokens and counterparties of the loaded transactions,
 * from the cached keys. Pages are appended to the list (same first item, longer list), so only
 * the new tail is counted; any other list is counted afresh.
 */
export function filterChoices(items: readonly Transaction[], address: string, maxParties = 200): FilterChoices {
  const me = address.toLowerCase()
  if (!last || last.me !== me || last.first !== items[0] || items.length < last.seen)
    last = { me, first: items[0], seen: 0, tokens: new Map(), parties: new Map() }
  const { tokens, parties } = last
  for (let i = last.seen; i < items.length; i++) {
    const tx = items[i]!
    const k = keysOf(tx, me)
    for (const t of k.tokens) {
      const c = tokens.get(t)
      if (c) c.count++
      else {
        const found = tx.token_transfers?.find((x) => sameAddress(x.token.address, t))
        if (found) tokens.set(t, { key: t, symbol: found.token.symbol || found.token.name || 'token', count: 1 })
      }
    }
    for (const p of k.parties) parties.set(p, (parties.get(p) ?? 0) + 1)
  }
  last.seen = items.length
  return {
    tokens: [...tokens.values()]
      .map((c) => ({ ...c }))
      .sort((a, b) => a.symbol.localeCompare(b.symbol) || (a.key < b.key ? -1 : 1)),
    parties: [...parties]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, maxParties)
      .map(([p]) => p),
  }
}

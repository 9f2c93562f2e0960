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

/**
 * What the filter pickers offer: the tokens and counterparties of the loaded transactions.
 * One pass over the cached keys; symbols are read only for a token's first transfer.
 */
export function filterChoices(items: readonly Transaction[], address: string, maxParties = 200): FilterChoices {
  const me = address.toLowerCase()
  const tokens = new Map<string, TokenChoice>()
  const parties = new Map<string, number>()
  for (const tx of items) {
    const k = keysOf(tx, me)
    for (const t of k.tokens) {
      const c = tokens.get(t)
      if (c) c.count++
      else {
        const found = tx.token_transfers?.find((x) => x.token.address.toLowerCase() === t)
        if (found) tokens.set(t, { key: t, symbol: found.token.symbol || found.token.name || 'token', count: 1 })
      }
    }
    for (const p of k.parties) parties.set(p, (parties.get(p) ?? 0) + 1)
  }
  return {
    tokens: [...tokens.values()].sort((a, b) => a.symbol.localeCompare(b.symbol) || (a.key < b.key ? -1 : 1)),
    parties: [...parties]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, maxParties)
      .map(([p]) => p),
  }
}

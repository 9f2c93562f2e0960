import type { Watchlist } from '@shared/bridge/contract'
import type { ApprovalParty } from '@shared/domain/approvals-view'
import type { AddressObject, BalanceItem, Token, Transaction } from '@shared/domain/service-schemas'
import { parseDecimals } from '@shared/domain/amount'
import type { TokenKinds } from './approval-fold'

/** The address objects and transfer tokens some transactions name, each once (the last sighting's fields win). */
export interface TxParties {
  parties: AddressObject[]
  tokens: Token[]
}

export function partiesOf(txs: readonly Transaction[]): TxParties {
  const parties = new Map<string, AddressObject>()
  const tokens = new Map<string, Token>()
  const seen = (a: AddressObject | null | undefined) => {
    if (a) parties.set(a.hash.toLowerCase(), { ...parties.get(a.hash.toLowerCase()), ...a })
  }
  for (const tx of txs) {
    seen(tx.from)
    seen(tx.to)
    for (const t of tx.token_transfers ?? []) {
      seen(t.from)
      seen(t.to)
      tokens.set(t.token.address.toLowerCase(), t.token)
    }
  }
  return { parties: [...parties.values()], tokens: [...tokens.values()] }
}

/**
 * What loaded data says about the parties of approvals, for free: address objects (names,
 * tags, contract and verified marks) of every transaction and transfer, tokens (kind,
 * decimals, rate) of balances and transfers, and watchlist labels for this network.
 */
export class PartyBook {
  readonly #addresses = new Map<string, AddressObject>()
  readonly #tokens = new Map<string, Token>()
  readonly #labels = new Map<string, string>()

  /** `found`: what each page of transactions names (`partiesOf`), oldest sighting first. */
  constructor(
    found: readonly TxParties[],
    balances: readonly BalanceItem[],
    lists: readonly Watchlist[],
    network: string,
  ) {
    for (const page of found) {
      for (const a of page.parties)
        this.#addresses.set(a.hash.toLowerCase(), { ...this.#addresses.get(a.hash.toLowerCase()), ...a })
      for (const t of page.tokens) this.#tokens.set(t.address.toLowerCase(), t)
    }
    // Balances are the newer word on a token (its rate now).
    for (const b of balances) this.#tokens.set(b.token.address.toLowerCase(), b.token)
    for (const list of lists)
      for (const e of list.entries)
        if ((e.network === network || e.alsoNetworks?.includes(network)) && e.label)
          if (!this.#labels.has(e.address.toLowerCase())) this.#labels.set(e.address.toLowerCase(), e.label)
  }

  /** Token kinds by contract, as the service names them ("ERC-20", "ERC-721", "ERC-1155"). */
  kinds(): TokenKinds {
    return new Map([...this.#tokens].map(([a, t]) => [a, t.type]))
  }

  token(address: string): Token | null {
    return this.#tokens.get(address) ?? null
  }

  decimals(address: string): number | null {
    return parseDecimals(this.#tokens.get(address)?.decimals)
  }

  party(address: string): ApprovalParty {
    const a = this.#addresses.get(address)
    const token = this.#tokens.get(address)
    const tags = [...(a?.public_tags ?? []), ...(a?.private_tags ?? [])]
      .map((t) => (typeof t === 'string' ? t : (t.display_name ?? t.label ?? '')))
      .filter((t) => t.length > 0)
    return {
      address,
      name: a?.name ?? token?.name ?? null,
      tags,
      watchlistLabel: this.#labels.get(address) ?? null,
      isContract: a?.is_contract ?? (token ? true : null),
      isVerified: a?.is_verified ?? null,
    }
  }
}

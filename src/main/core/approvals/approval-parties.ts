import type { Watchlist } from '@shared/bridge/contract'
import type { ApprovalParty } from '@shared/domain/approvals-view'
import type { AddressObject, AddressTag, BalanceItem, Token, Transaction } from '@shared/domain/service-schemas'
import { parseDecimals } from '@shared/domain/amount'
import type { TokenKinds } from './approval-fold'

/**
 * What the view shows of an address object: its name, its tags as text, and its contract and
 * verified marks. A field the service left out stays out, so a later sighting without it keeps
 * an earlier one's.
 */
export interface PartyFacts {
  hash: string
  name?: string | null
  public_tags?: string[]
  private_tags?: string[]
  is_contract?: boolean | null
  is_verified?: boolean | null
}

/** What the view shows of a token: its kind, decimals, symbol, name and rate. */
export type TokenFacts = Pick<Token, 'address' | 'type' | 'decimals' | 'symbol' | 'name' | 'exchange_rate'>

/** The address objects and transfer tokens some transactions name, each once (the last sighting's fields win). */
export interface TxParties {
  parties: PartyFacts[]
  tokens: TokenFacts[]
}

const tagText = (t: AddressTag): string => (typeof t === 'string' ? t : (t.display_name ?? t.label ?? ''))

function factsOf(a: AddressObject): PartyFacts {
  const out: PartyFacts = { hash: a.hash }
  if (a.name !== undefined) out.name = a.name
  // No list and an empty one show the same: one form, so a digest's parties compare as equal.
  if (a.public_tags !== undefined) out.public_tags = (a.public_tags ?? []).map(tagText)
  if (a.private_tags !== undefined) out.private_tags = (a.private_tags ?? []).map(tagText)
  if (a.is_contract !== undefined) out.is_contract = a.is_contract
  if (a.is_verified !== undefined) out.is_verified = a.is_verified
  return out
}

function tokenFacts(t: Token): TokenFacts {
  const out: TokenFacts = { address: t.address, type: t.type, decimals: t.decimals, symbol: t.symbol, name: t.name }
  if (t.exchange_rate !== undefined) out.exchange_rate = t.exchange_rate
  return out
}

/** Only what the view shows is kept: a digest of the page is saved, and most of an address object is not shown here. */
export function partiesOf(txs: readonly Transaction[]): TxParties {
  const parties = new Map<string, PartyFacts>()
  const tokens = new Map<string, TokenFacts>()
  const seen = (a: AddressObject | null | undefined) => {
    if (a) parties.set(a.hash.toLowerCase(), { ...parties.get(a.hash.toLowerCase()), ...factsOf(a) })
  }
  for (const tx of txs) {
    seen(tx.from)
    seen(tx.to)
    for (const t of tx.token_transfers ?? []) {
      seen(t.from)
      seen(t.to)
      tokens.set(t.token.address.toLowerCase(), tokenFacts(t.token))
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
  readonly #addresses = new Map<string, PartyFacts>()
  readonly #tokens = new Map<string, TokenFacts>()
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

  token(address: string): TokenFacts | null {
    return this.#tokens.get(address) ?? null
  }

  decimals(address: string): number | null {
    return parseDecimals(this.#tokens.get(address)?.decimals)
  }

  party(address: string): ApprovalParty {
    const a = this.#addresses.get(address)
    const token = this.#tokens.get(address)
    const tags = [...(a?.public_tags ?? []), ...(a?.private_tags ?? [])].filter((t) => t.length > 0)
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

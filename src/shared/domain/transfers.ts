import type { AddressObject, Transaction } from './service-schemas'
import { parseDecimals } from './amount'
import { normaliseAddress } from './address'
import { displayName } from './display-name'

/**
 * The one place the analysis views read `token_transfers`: the typed shape main parsed at the
 * edge (`tokenTransferSchema`). A transaction whose transfers could not be read never gets
 * here; it is an unreadable row of its page.
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
  /** The parties as the item describes them (contract and verified marks, ENS, tags). */
  fromParty: AddressObject | null
  toParty: AddressObject | null
}

export interface TransfersOf {
  flows: TransferFlow[]
  /** The item lists only the first transfers (`token_transfers_overflow`). */
  overflow: boolean
}

export function partyHash(party: AddressObject | null | undefined): string | null {
  return party ? normaliseAddress(party.hash) : null
}

/** The best name an address object carries: service name, then ENS, then its first tag. */
export function partyLabel(party: AddressObject | null | undefined): string | null {
  if (!party) return null
  const name = displayName(party.name) ?? displayName(party.ens_domain_name)
  if (name) return name
  for (const tags of [party.public_tags, party.private_tags]) {
    for (const t of tags ?? []) {
      const label = typeof t === 'string' ? displayName(t) : (displayName(t.display_name) ?? displayName(t.label))
      if (label) return label
    }
  }
  return null
}

const EMPTY: TransfersOf = { flows: [], overflow: false }

export function transfersOf(tx: Transaction): TransfersOf {
  const list = tx.token_transfers
  if (!list || list.length === 0) return EMPTY
  const flows = list.map((r): TransferFlow => {
    const tokenId = r.total.token_id ?? null
    // An ERC-721 transfer names its token id and moves exactly one.
    const value = r.total.value !== null && r.total.value !== undefined ? BigInt(r.total.value) : 1n
    const symbol = displayName(r.token.symbol) ?? displayName(r.token.name) ?? 'token'
    return {
      from: partyHash(r.from),
      to: partyHash(r.to),
      token: normaliseAddress(r.token.address),
      symbol,
      decimals: parseDecimals(r.total.decimals ?? r.token.decimals ?? null),
      type: displayName(r.token.type) ?? r.type,
      value,
      tokenId,
      fromLabel: partyLabel(r.from),
      toLabel: partyLabel(r.to),
      fromParty: r.from ?? null,
      toParty: r.to ?? null,
    }
  })
  return { flows, overflow: tx.token_transfers_overflow === true }
}

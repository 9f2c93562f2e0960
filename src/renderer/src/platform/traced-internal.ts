import type { AddressInternalView, InternalTransferRow } from '@shared/bridge/entity-types'
import type { Transaction } from '@shared/domain/service-schemas'
import { parseAmount } from '@shared/domain/amount'
import { NATIVE, type Movement } from '@shared/domain/movements'
import { bridge } from './bridge'
import { fetched, type Fetched } from './fetched'

/** Coin moved inside one traced transaction (depth >= 1 of its call tree), by lowercase hash. */
export type InternalByHash = ReadonlyMap<
  string,
  readonly Pick<InternalTransferRow, 'from' | 'to' | 'value' | 'depth'>[]
>

/** Whose loaded transactions to look up in the traces already kept. */
export interface TracedKey {
  network: string
  address: string
  /** The loaded transactions' hashes, in order. */
  hashes: readonly string[]
}

/** At most this many hashes are looked up (main's limit per call). */
const MAX_HASHES = 10_000

/**
 * The internal coin transfers of an address's loaded transactions that the user traced
 * (Internal transfers tab, transaction page): read from main's kept traces only, so it sends
 * nothing and costs nothing (no cost shown first). For the flow graph and counterparties,
 * which mark them internal (docs/decisions/internal-transfers-in-flows.md).
 */
export function tracedInternal(): Fetched<TracedKey, AddressInternalView> {
  return fetched<TracedKey, AddressInternalView>({
    same: (a, b) => a.network === b.network && a.address === b.address && a.hashes.join() === b.hashes.join(),
    live: (k) =>
      bridge.invoke('entities.internalOf', {
        network: k.network,
        address: k.address,
        hashes: [...k.hashes.slice(0, MAX_HASHES)],
      }),
  })
}

/** The view's transfers by lowercase hash (each kept as main gave it: `internalMovements` reads them). */
export function internalByHash(view: AddressInternalView | null): InternalByHash {
  const out = new Map<string, Pick<InternalTransferRow, 'from' | 'to' | 'value' | 'depth'>[]>()
  for (const t of view?.transfers ?? []) {
    const hash = t.hash.toLowerCase()
    const list = out.get(hash) ?? []
    list.push(t)
    out.set(hash, list)
  }
  return out
}

/** "N of M loaded transactions traced; internal transfers counted where traced", or null before any answer. */
export function tracedNote(view: AddressInternalView | null): string | null {
  if (!view) return null
  const traced = view.traced.length
  return `${traced} of ${traced + view.untraced.length} loaded transactions traced; internal transfers counted where traced.`
}

/**
 * A loaded transaction's traced internal coin transfers as movements (the item names no party
 * for them). Depth 0 is the transaction's own value, already one of its movements: left out, so
 * nothing counts twice; so is a value that is not whole wei. None when it was not traced.
 */
export function internalMovements(tx: Transaction, byHash: InternalByHash | null | undefined): Movement[] {
  const list = typeof tx.hash === 'string' ? byHash?.get(tx.hash.toLowerCase()) : undefined
  const out: Movement[] = []
  for (const t of list ?? []) {
    const value = parseAmount(t.value)
    if (t.depth < 1 || value === null) continue
    const parties = { fromParty: null, toParty: null, fromLabel: null, toLabel: null }
    const [from, to] = [t.from.toLowerCase(), t.to.toLowerCase()]
    out.push({ kind: 'native', from, to, asset: NATIVE, symbol: 'coin', decimals: 18, value, ...parties })
  }
  return out
}

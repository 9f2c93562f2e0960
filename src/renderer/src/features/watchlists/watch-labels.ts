import type { Watchlist } from '@shared/bridge/contract'
import type { AddressLabel } from '@shared/domain/address-label'
import { displayName } from '@shared/domain/display-name'

/**
 * The user's names of addresses on one network, by lowercase address: a watchlist entry's label
 * first (an entry may list other networks too), then the user's address label (labels.json),
 * shown like a service name (`displayName`). Labels and notes are one layer: every view that
 * names an address reads this (docs/decisions/labels-one-layer.md).
 */
export function watchLabelsOn(
  lists: readonly Watchlist[],
  network: string | null | undefined,
  addressLabels: Iterable<AddressLabel> = [],
): Map<string, string> {
  const out = new Map<string, string>()
  if (!network) return out
  for (const list of lists)
    for (const e of list.entries)
      if (e.label && (e.network === network || e.alsoNetworks?.includes(network)))
        out.set(e.address.toLowerCase(), e.label)
  for (const l of addressLabels) {
    const name = l.network === network ? displayName(l.label) : null
    if (name && !out.has(l.address.toLowerCase())) out.set(l.address.toLowerCase(), name)
  }
  return out
}

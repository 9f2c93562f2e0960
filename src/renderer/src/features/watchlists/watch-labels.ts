import type { Watchlist } from '@shared/bridge/contract'

/** The user's watchlist labels on one network, by lowercase address (an entry may list other networks too). */
export function watchLabelsOn(lists: readonly Watchlist[], network: string | null | undefined): Map<string, string> {
  const out = new Map<string, string>()
  if (!network) return out
  for (const list of lists)
    for (const e of list.entries)
      if (e.label && (e.network === network || e.alsoNetworks?.includes(network)))
        out.set(e.address.toLowerCase(), e.label)
  return out
}

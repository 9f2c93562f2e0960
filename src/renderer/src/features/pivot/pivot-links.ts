import type { RouteLocationRaw } from 'vue-router'
import { checksumAddress } from '@shared/domain/address'

/**
 * Where each pivot leads: the app's own hash routes, so a plain click navigates in the app and
 * the same `href` opened in a new window (middle-click, Ctrl+click) shows the same page.
 */
export function addressRoute(network: string, address: string, tab?: 'flows'): RouteLocationRaw {
  const params = { network, address: checksumAddress(address) }
  return { name: 'address', params: tab ? { ...params, tab } : params }
}

export function txRoute(network: string, hash: string): RouteLocationRaw {
  return { name: 'tx', params: { network, hash: hash.toLowerCase() } }
}

export function blockRoute(network: string, number: bigint | number | string): RouteLocationRaw {
  return { name: 'block', params: { network, number: String(number) } }
}

/**
 * The network "Open on the other network" goes to: the profile's next network after this one,
 * wrapping (the service has two). Null when the profile has no other network.
 */
export function otherNetwork(networks: readonly { name: string }[], current: string): string | null {
  const others = networks.filter((n) => n.name !== current)
  if (others.length === 0) return null
  const at = networks.findIndex((n) => n.name === current)
  const next = networks.slice(at + 1).find((n) => n.name !== current)
  return (next ?? others[0]!).name
}

import { useRouter } from 'vue-router'
import { checkAddress, type AddressCheck } from '@shared/domain/address'
import { useChainStore } from './chain-store'
import { useRecentStore } from './recent-store'

/**
 * Opens an address the same way from everywhere: the search box, a recent address, a
 * watchlist entry, or main's 'open.address' event (command line, app link, menu).
 */
export function useOpenAddress() {
  const router = useRouter()
  const chain = useChainStore()
  const recent = useRecentStore()

  return (input: string, network?: string | null, tab: 'balances' | 'transactions' = 'balances'): AddressCheck => {
    const check = checkAddress(input)
    if (!check.ok) return check
    if (network && !chain.networks.some((n) => n.name === network)) {
      const names = chain.networks.map((n) => n.name).join(' or ')
      return { ok: false, message: `This profile has no network "${network}"${names ? `; it has ${names}` : ''}.` }
    }
    const net = network ?? chain.selectedNetwork?.name
    if (!net) return { ok: false, message: 'Choose the sandbox or a service profile first.' }
    chain.select(net)
    recent.add(check.address, net)
    void router.push({ name: 'address', params: { network: net, address: check.address, tab } })
    return check
  }
}

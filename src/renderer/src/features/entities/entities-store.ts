import { defineStore } from 'pinia'
import { computed, shallowRef } from 'vue'
import type { AddressKindView } from '@shared/bridge/entity-types'
import { bridge } from '../../platform/bridge'
import { abiEvents, type AbiEvents } from './abi-events'
import { costedRead } from './costed-read'

/** ABIs kept for decoding logs in this session (the newest first; older ones dropped). */
const MAX_ABIS = 10

/**
 * What the open address is (contract or account, its name, code size, creator) and the ABIs the
 * user loaded this session, whose events the transaction detail's Logs section decodes.
 */
export const useEntitiesStore = defineStore('entities', () => {
  const kind = costedRead<AddressKindView>('address', (key, refresh) =>
    bridge.invoke('entities.address', { network: key.network, address: key.id, refresh }),
  )
  const abis = shallowRef<AbiEvents[]>([])

  const contract = computed(() => kind.view.data.value?.kind === 'contract')

  /** The address page asks: shown at once when free (cached, or the loaded transactions say), else its cost. */
  function openAddress(network: string, address: string): Promise<void> {
    return kind.open({ network, id: address.toLowerCase() })
  }

  /** An ABI main accepted: its events decode logs from now on (the same label replaces the older one). */
  function keepAbi(text: string, label: string): void {
    const events = abiEvents(text, label)
    abis.value = [events, ...abis.value.filter((a) => a.label !== label)].slice(0, MAX_ABIS)
  }

  return {
    /** The open address's kind, its cost, and what the fetched-data layer says of it. */
    kindView: kind.view.data,
    kindStatus: kind.view.status,
    kindState: kind.state,
    kindCost: kind.cost.data,
    kindWaiting: kind.waiting,
    runKind: kind.run,
    retryKind: kind.retry,
    refreshKind: kind.view.refresh,
    abis,
    contract,
    openAddress,
    keepAbi,
  }
})

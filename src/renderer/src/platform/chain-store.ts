import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import type { HeightView } from '@shared/bridge/contract'
import { bridge } from './bridge'
import { readStored, writeStored } from '../ui/persisted'
import { useSessionStore } from './session-store'
import { coinInfo, type CoinInfo } from '@shared/domain/money'

const NETWORK_KEY = 'chainscope.network.v1'

/** The selected network and the live height and gas price of each network. */
export const useChainStore = defineStore('chain', () => {
  const session = useSessionStore()
  const selected = ref<string | null>(readStored(NETWORK_KEY, (v) => (typeof v === 'string' ? v : null), null))
  const heights = ref<Record<string, HeightView>>({})

  const networks = computed(() => session.networks)
  const selectedNetwork = computed(
    () => networks.value.find((n) => n.name === selected.value) ?? networks.value[0] ?? null,
  )

  bridge.on('height', (h) => {
    if (h && typeof h.network === 'string') heights.value = { ...heights.value, [h.network]: h }
  })

  // Another profile names other networks: keep the choice only if it still exists.
  watch(
    networks,
    (list) => {
      if (list.length && !list.some((n) => n.name === selected.value)) selected.value = list[0]!.name
      const names = new Set(list.map((n) => n.name))
      const kept = Object.fromEntries(Object.entries(heights.value).filter(([name]) => names.has(name)))
      if (Object.keys(kept).length !== Object.keys(heights.value).length) heights.value = kept
    },
    { immediate: true },
  )

  function select(name: string): void {
    if (!networks.value.some((n) => n.name === name)) return
    selected.value = name
    writeStored(NETWORK_KEY, name)
  }

  function labelOf(name: string): string {
    return networks.value.find((n) => n.name === name)?.label ?? name
  }

  /** The network's coin as its profile names it ("coin", 18 decimals where it does not). */
  function coinOf(name: string): CoinInfo {
    return coinInfo(networks.value.find((n) => n.name === name))
  }

  async function load(): Promise<void> {
    const result = await bridge.invoke('height.get', {})
    if (!result.ok) return
    const next: Record<string, HeightView> = { ...heights.value }
    for (const h of result.value) next[h.network] = h
    heights.value = next
  }

  return { selected, selectedNetwork, networks, heights, select, labelOf, coinOf, load }
})

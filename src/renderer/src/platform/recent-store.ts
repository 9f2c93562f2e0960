import { defineStore } from 'pinia'
import { ref } from 'vue'
import { isRecord, readStored, writeStored } from '../ui/persisted'
import { isAddressText, sameAddress } from '@shared/domain/address'

const KEY = 'chainscope.recent.v1'
const MAX = 12

export interface RecentAddress {
  address: string
  network: string
  at: number
}

function accept(value: unknown): RecentAddress[] | null {
  if (!Array.isArray(value)) return null
  return value.filter(
    (v): v is RecentAddress =>
      isRecord(v) && isAddressText(v.address) && typeof v.network === 'string' && typeof v.at === 'number',
  )
}

/** Addresses opened lately, newest first (public data only, kept in the page's storage). */
export const useRecentStore = defineStore('recent', () => {
  const items = ref<RecentAddress[]>(readStored(KEY, accept, []))

  function add(address: string, network: string, at = Date.now()): void {
    const rest = items.value.filter((r) => !(sameAddress(r.address, address) && r.network === network))
    items.value = [{ address, network, at }, ...rest].slice(0, MAX)
    writeStored(KEY, items.value)
  }

  function clear(): void {
    items.value = []
    writeStored(KEY, [])
  }

  return { items, add, clear }
})

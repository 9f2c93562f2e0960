import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import type { CaseFile, GraphState } from '@shared/domain/case-file'
import type { BridgeResult } from '@shared/bridge/errors'
import { action } from '../../platform/action'
import { bridge } from '../../platform/bridge'

/** Cases (main keeps them in cases.json and is the one writer); none of this reads the network. */
export const useCasesStore = defineStore('cases', () => {
  const cases = shallowRef<CaseFile[]>([])
  const loaded = ref(false)
  const listing = action()

  bridge.on('cases.changed', (list) => {
    if (Array.isArray(list)) cases.value = list
  })

  function load(): Promise<void> {
    return listing
      .run(() => bridge.invoke('cases.list', {}))
      .then((list) => {
        loaded.value = true
        if (list) cases.value = list
      })
  }

  /** Answers of calls that change a case: the list is updated at once (the event follows too). */
  function keep<T extends CaseFile>(r: BridgeResult<T>): BridgeResult<T> {
    if (r.ok) {
      const others = cases.value.filter((c) => c.id !== r.value.id)
      const at = cases.value.findIndex((c) => c.id === r.value.id)
      cases.value = at < 0 ? [...others, r.value] : cases.value.map((c) => (c.id === r.value.id ? r.value : c))
    }
    return r
  }

  const byId = (id: string): CaseFile | null => cases.value.find((c) => c.id === id) ?? null
  const create = async (name: string, first?: { address: string; network: string }) =>
    keep(await bridge.invoke('cases.create', { name, ...(first ? { first } : {}) }))
  const addAddress = async (id: string, address: string, network: string) =>
    keep(await bridge.invoke('cases.addAddress', { id, address, network }))
  /** Adds a pasted list in one write, all or nothing. */
  const addAddresses = async (id: string, addresses: { address: string; network: string; label?: string }[]) =>
    keep(await bridge.invoke('cases.addAddresses', { id, addresses }))
  const updateAddress = async (
    id: string,
    address: string,
    network: string,
    patch: { label?: string; note?: string },
  ) => keep(await bridge.invoke('cases.updateAddress', { id, address, network, ...patch }))
  const removeAddress = async (id: string, address: string, network: string) =>
    keep(await bridge.invoke('cases.removeAddress', { id, address, network }))
  const setNotes = async (id: string, notes: string) => keep(await bridge.invoke('cases.setNotes', { id, notes }))
  const setGraph = async (id: string, graph: GraphState) => keep(await bridge.invoke('cases.setGraph', { id, graph }))
  const rename = async (id: string, name: string) => keep(await bridge.invoke('cases.rename', { id, name }))
  const importText = async (text: string) => keep(await bridge.invoke('cases.import', { text }))
  const exportFile = (id: string) => bridge.invoke('cases.export', { id })
  async function remove(id: string) {
    const r = await bridge.invoke('cases.delete', { id })
    if (r.ok) cases.value = cases.value.filter((c) => c.id !== id)
    return r
  }

  return {
    cases,
    loaded,
    error: listing.error,
    load,
    byId,
    create,
    addAddress,
    addAddresses,
    updateAddress,
    removeAddress,
    setNotes,
    setGraph,
    rename,
    importText,
    exportFile,
    remove,
  }
})
